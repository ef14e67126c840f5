package queue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
)

// WorkerConfig is one worker process: Slots blocks played at once.
type WorkerConfig struct {
	Store *store.Postgres
	// Player plays the blocks (its Options are replaced per job: none for a game on
	// its defaults, Options for a variant they make).
	Player *ladder.ArenaPlayer
	// Options are the game options (a board, a deck) of the variants this worker can
	// play; a job of another variant is snoozed.
	Options engine.Options
	// Slots is the number of blocks played at once.
	Slots int
	// Lease is how long a job may run per block it carries before the queue's leader
	// hands it to another worker (River's RescueStuckJobsAfter, and the job's Timeout);
	// every worker of a ladder should agree.
	Lease time.Duration
	// Timeout cancels a block's play after this long (it must be shorter than Lease);
	// the rotations recorded stay, the rest are played by the job's next attempt.
	Timeout time.Duration
	// Worker is this worker's ID in the store's registry (store.KeepAlive), recorded
	// with each of its games; 0 for none.
	Worker int64
	// Held keeps every block from playing until Release gives the worker's ID: the
	// River client can then start, fetch its first jobs and read their blocks while
	// the worker registers and its sandbox's trial box runs, rather than after (about
	// 40 ms of a worker's first 300 at a load of 17).
	Held bool
	// Log receives River's lines (nil: none).
	Log hclog.Logger
	// OnGame, when set, hears of every game this worker recorded.
	OnGame func(store.Match)
	// OnJob, when set, hears of every job as it ends, with its error (nil when done).
	OnJob func(args BlockArgs, attempt int, err error)
}

// Worker is a River client playing blocks.
type Worker struct {
	*river.Client[pgx.Tx]
	slots *slots
	block *blockWorker
}

// NewWorker is the River client of a worker, not yet started (Start; Shutdown on the
// way out).
func NewWorker(pool *pgxpool.Pool, cfg WorkerConfig) (*Worker, error) {
	if cfg.Slots < 1 || cfg.Store == nil || cfg.Player == nil {
		return nil, errors.New("a worker needs a store, a player and at least one slot")
	}
	if cfg.Timeout <= 0 || cfg.Timeout >= cfg.Lease {
		return nil, fmt.Errorf("a block's time limit (%v, --job-timeout) must be positive and shorter than the lease (%v, --lease)", cfg.Timeout, cfg.Lease)
	}
	s := newSlots(cfg.Slots)
	if cfg.Held {
		s.ready = make(chan struct{})
	}
	bw := &blockWorker{cfg: cfg, slots: s, recheck: recheckEvery}
	bw.id.Store(cfg.Worker)
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely[BlockArgs](workers, bw); err != nil {
		return nil, err
	}
	c, err := river.NewClient(riverpgxv5.New(pool), clientConfig(cfg, workers))
	if err != nil {
		return nil, err
	}
	return &Worker{c, s, bw}, nil
}

// Release lets the blocks of a Held worker play, with worker as its ID in the
// registry. The player (WorkerConfig.Player) is read only after: set its observer
// before. A second Release does nothing.
func (w *Worker) Release(worker int64) {
	w.slots.readyOnce.Do(func() {
		w.block.id.Store(worker)
		close(w.slots.ready)
	})
}

// clientConfig is the River configuration of a worker playing cfg.Slots jobs of
// workers at once.
func clientConfig(cfg WorkerConfig, workers *river.Workers) *river.Config {
	return &river.Config{
		Queues:               map[string]river.QueueConfig{Queue: {MaxWorkers: Places(cfg.Slots)}},
		Workers:              workers,
		JobTimeout:           cfg.Lease, // per job: blockWorker.Timeout
		RescueStuckJobsAfter: cfg.Lease,
		RetryPolicy:          retryPolicy{},
		Logger:               logger(cfg.Log),
		// A slot freed by a finished block fetches the next at once: River's default
		// (100 ms between fetches) capped a worker at ten blocks a second whatever
		// its slots, as each fetch finds one slot free. Fetches still come only
		// when a slot frees or a job is enqueued (LISTEN), so idle workers cost
		// nothing more.
		FetchCooldown: fetchCooldown,
		// Completed jobs are history the ladder keeps itself (its games).
		CompletedJobRetentionPeriod: time.Hour,
	}
}

// Shutdown stops the worker as River advises: it takes no more blocks and finishes
// those under way until soft ends (a timeout, or the operator's second signal), then
// cancels what is left (River's StopAndCancel: the bots are stopped, the games that
// ended stay recorded and each unfinished block's job goes back to the queue for the
// rest), waiting at most hardWithin for that. finished reports that every block under
// way was played to its end.
func (w *Worker) Shutdown(soft context.Context, hardWithin time.Duration) (finished bool, err error) {
	w.slots.stop()
	if err := w.Stop(soft); err == nil {
		return true, nil
	}
	hard, cancel := context.WithTimeout(context.WithoutCancel(soft), hardWithin)
	defer cancel()
	return false, w.StopAndCancel(hard)
}

type blockWorker struct {
	river.WorkerDefaults[BlockArgs]
	cfg   WorkerConfig
	slots *slots
	// id is the worker's ID, set by Release for a Held worker.
	id atomic.Int64
	// recheck is how old the read of a job's bots may be before its next block
	// (recheckEvery; 0: before every block).
	recheck time.Duration
}

// inHand is how many jobs a worker's River client runs beyond those it plays and
// records: they wait for a slot (slots.take), so that a slot that frees starts its
// next block at once. River fetches for a freed slot only after a round trip to the
// database, and when a fetch was under way as the slot freed, only at the next
// completion: at -j 4 with blocks of 20 ms the slots idled 30% of the time. One in
// hand covers a slot; more would strand more blocks until the lease when a worker is
// killed.
const inHand = 1

// Places is how many jobs a worker of so many slots runs at once (River's
// MaxWorkers), and so how many block reads its first fetch starts at once: a job whose games are played but still being recorded
// (blockWorker.record) keeps its place until its records are made, while the next
// block plays in its slot, so each slot has a place for that record beside the one it
// plays in, and the job in hand its own. Without the record's place the next job was
// fetched only once the record was made, and the slot idled 2 ms a block (mean, -j 1,
// load 13) waiting for it. When no record is under way, the spare places hold jobs in
// hand too: a killed worker strands at most 2 x slots + 1 jobs until their lease (a
// lease per block they carry).
func Places(slots int) int { return 2*slots + inHand }

// slots lets a worker's blocks play, at most so many at once, once it is ready.
type slots struct {
	play     chan struct{}
	stopping chan struct{}
	// ready is closed once blocks may play (Worker.Release).
	ready           chan struct{}
	once, readyOnce sync.Once
}

func newSlots(n int) *slots {
	ready := make(chan struct{})
	close(ready)
	return &slots{play: make(chan struct{}, n), stopping: make(chan struct{}), ready: ready}
}

// take waits for the worker to be ready, then for a slot. Once the worker stops, a
// job still waiting goes back to the queue at once (a snooze of 0, which costs no
// attempt), and so does one whose context ends (River's stop hands it back).
func (s *slots) take(ctx context.Context) error {
	select {
	case <-s.stopping:
		return river.JobSnooze(0)
	default:
	}
	select {
	case <-s.ready:
	case <-s.stopping:
		return river.JobSnooze(0)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case s.play <- struct{}{}:
		return nil
	case <-s.stopping:
		return river.JobSnooze(0)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slots) give() { <-s.play }

func (s *slots) stop() { s.once.Do(func() { close(s.stopping) }) }

// fetchCooldown is the least time between a worker's fetches of jobs.
const fetchCooldown = 2 * time.Millisecond

// snooze is how long a job this worker cannot play waits for another worker.
const snooze = time.Minute

// Timeout is a job's lease, scaled to its blocks: River cancels the job after it, and
// its rescuer hands a job on only once it has run that long (and Lease). Each block
// has its own time limit (Timeout, shorter than Lease) inside the job, so a worker
// alive ends the job itself first, as with a job of one block; a killed worker's job
// of k blocks comes back after k leases.
func (w *blockWorker) Timeout(job *river.Job[BlockArgs]) time.Duration {
	return time.Duration(1+len(job.Args.More)) * w.cfg.Lease
}

func (w *blockWorker) Work(ctx context.Context, job *river.Job[BlockArgs]) (err error) {
	// The job in hand reads its blocks and bots while it waits for a slot, so that a
	// slot that frees starts it without that round trip (under load it waits for the
	// server's process to be scheduled). A bot retired or suspended meanwhile still
	// plays this job's first block, as it would had it started a moment sooner; its
	// later blocks see the change (playAll).
	read := time.Now()
	plays, err := w.prepare(ctx, job)
	if err := w.slots.take(ctx); err != nil {
		return err
	}
	if w.cfg.OnJob != nil {
		defer func() { w.cfg.OnJob(job.Args, job.Attempt, err) }()
	}
	if err != nil || len(plays) == 0 {
		w.slots.give()
		return err
	}
	// The job keeps its slot from block to block; each block's games are recorded
	// while the next block plays. The slot frees once the last block's games are
	// played, and the job ends (River completes it) once every game is recorded.
	recs := newRecords()
	played := func() error {
		defer w.slots.give()
		return w.playAll(ctx, plays, recs, read)
	}()
	// The job that takes the slot starts before the records are made: with one P per
	// slot (GOMAXPROCS = -j), this goroutine would otherwise go on compressing and
	// sending the records first, and the slot would idle meanwhile (0.3 ms a block,
	// median at -j 1).
	runtime.Gosched()
	if err := recs.wait(); err != nil {
		return err
	}
	return played
}

// playAll plays a job's blocks in order, each recorded in the background (recs)
// while the next plays. Between two blocks the job may end (between), and a block
// whose bots include one retired or suspended since the job's bots were read (at
// read) is left open, unplayed, as prepare leaves it: the bots are read again before
// a block once the last read is recheckEvery old.
func (w *blockWorker) playAll(ctx context.Context, plays []jobPlay, recs *records, read time.Time) error {
	held := map[int64]bool{}
	for i, p := range plays {
		if i > 0 {
			if err := w.between(ctx, recs); err != nil {
				return err
			}
			if time.Since(read) >= w.recheck {
				read = time.Now()
				var err error
				if held, err = w.heldBots(ctx, plays[i:]); err != nil {
					return err
				}
			}
			if p.heldBy(held) {
				if w.cfg.Log != nil {
					w.cfg.Log.Info("block left open: a bot of it was retired or suspended during its job", "block", p.block)
				}
				continue
			}
		}
		if err := recs.add(p.play(ctx)); err != nil {
			return err
		}
	}
	return nil
}

// recheckEvery is how old the read of a job's bots may be before its next block
// reads them again. A block of built-in bots lasts tens of milliseconds, so a job
// of sixteen reads them about once, as it did when a job carried four blocks and
// read them once; a job of slow blocks reads them before each block, so a bot
// retired or suspended plays at most the block under way and those that begin
// within a second of the last read.
const recheckEvery = time.Second

// heldBots reads which bots of plays are retired or suspended now.
func (w *blockWorker) heldBots(ctx context.Context, plays []jobPlay) (map[int64]bool, error) {
	var ids []int64
	for _, p := range plays {
		ids = append(ids, p.bots...)
	}
	held, err := w.cfg.Store.HeldBots(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("reading the job's bots again: %w", err)
	}
	m := map[int64]bool{}
	for _, id := range held {
		m[id] = true
	}
	return m, nil
}

// jobPlay is one block of a job: its play and its bots (IDs).
type jobPlay struct {
	block int64
	bots  []int64
	play  blockPlay
}

func (p jobPlay) heldBy(held map[int64]bool) bool {
	for _, b := range p.bots {
		if held[b] {
			return true
		}
	}
	return false
}

// between is what ends a job between two of its blocks: a record that failed (no
// later block is recorded, so none is played), a hard stop (ctx), or a soft stop,
// which hands the rest of the job back once its records are made (a snooze of 0: the
// job waits in the queue at once, and no attempt is counted).
func (w *blockWorker) between(ctx context.Context, recs *records) error {
	if err := recs.failed(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-w.slots.stopping:
		if err := recs.wait(); err != nil {
			return err
		}
		return river.JobSnooze(0)
	default:
		return nil
	}
}

// HandedBack reports whether a job's error (WorkerConfig.OnJob's) hands the job back to
// the queue without counting an attempt: a stop's snooze, not a failure.
func HandedBack(err error) bool {
	var snoozed *river.JobSnoozeError
	return errors.As(err, &snoozed)
}

// blockPlay plays a block within its time limit and returns once its games are
// played, with their record (to be made) and the play's error.
type blockPlay func(ctx context.Context) (record func() error, played error)

// prepare reads what job's blocks need to be played, in one round trip, and returns
// their plays in the job's order; none for blocks with every rotation recorded. A
// block that cannot be played (gone, or a bot retired or suspended since it was
// scheduled) is left open and the others are played; when none of the job's blocks
// is played for that, the job is cancelled with the first one's reason.
func (w *blockWorker) prepare(ctx context.Context, job *river.Job[BlockArgs]) ([]jobPlay, error) {
	args := job.Args
	if args.Version != Version() {
		return nil, river.JobSnooze(snooze)
	}
	var opts engine.Options
	if strings.Contains(args.Game, "@") {
		opts = w.cfg.Options
	}
	if engine.Variant(engine.VariantGame(args.Game), opts) != args.Game {
		return nil, river.JobSnooze(snooze)
	}
	ids := args.Blocks()
	blocks, all, sus, err := w.cfg.Store.BlocksToPlay(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := map[int64]store.Block{}
	for _, b := range blocks {
		byID[b.ID] = b
	}
	fence := store.Fence{Job: job.ID, Attempt: job.Attempt}
	var plays []jobPlay
	var unplayable error
	for _, id := range ids {
		b, ok := byID[id]
		var bots []store.Bot
		if ok {
			bots, err = blockBots(b, all, sus)
		} else {
			err = river.JobCancel(fmt.Errorf("%w: block %d", store.ErrNotFound, id))
		}
		switch {
		case err != nil:
			unplayable = cmp.Or(unplayable, err)
		case b.Rotations > len(b.Done):
			plays = append(plays, jobPlay{block: b.ID, bots: b.Bots, play: w.blockPlay(b, bots, opts, fence)})
		}
	}
	if len(plays) == 0 {
		return nil, unplayable
	}
	return plays, nil
}

// blockPlay is the play of block b between bots, its games recorded under fence.
func (w *blockWorker) blockPlay(b store.Block, bots []store.Bot, opts engine.Options, fence store.Fence) blockPlay {
	done := map[int]bool{}
	for _, r := range b.Done {
		done[r] = true
	}
	return func(ctx context.Context) (func() error, error) {
		// Read once the worker is ready (slots.take): a Held worker's player gets its
		// observer meanwhile.
		player := *w.cfg.Player
		player.Options = opts
		worker := w.id.Load()
		var games []store.Match
		limited, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
		defer cancel()
		err := player.PlayBlock(limited, b, bots, func(m store.Match) error {
			if !done[m.Rotation] {
				m.Block, m.Game, m.Worker = b.ID, b.Game, worker
				games = append(games, m)
			}
			return nil
		})
		return func() error { return w.record(ctx, b.ID, games, fence) }, err
	}
}

// records are a job's blocks' records, made one after another in the background
// while the job's next block plays: one transaction per block (fenced by the job)
// rather than per game halves the round trips and the database's work around the
// games, and a block's last game no longer waits for its record. A kill loses
// nothing more: a game whose record is under way, or not yet begun, is a game not
// recorded, whose rotation the job's next attempt plays (as a game the kill cut
// short). Once a record fails, no later block of the job is recorded.
type records struct {
	// last gives the latest record's verdict (each record waits for the one before).
	last chan error
	bad  atomic.Pointer[error]
}

func newRecords() *records {
	r := &records{last: make(chan error, 1)}
	r.last <- nil
	return r
}

// add records a block's games in the background (record), after those of the blocks
// before it, and returns the block's play's error (played): a block cut short by its
// time limit or a stop ends the job, its games played kept.
func (r *records) add(record func() error, played error) error {
	before, next := r.last, make(chan error, 1)
	r.last = next
	go func() {
		err := <-before
		if err == nil {
			err = record()
		}
		if err != nil {
			r.bad.CompareAndSwap(nil, &err)
		}
		next <- err
	}()
	return played
}

// failed is the error of a record already failed, if any (it does not wait).
func (r *records) failed() error {
	if e := r.bad.Load(); e != nil {
		return *e
	}
	return nil
}

// wait waits for every record added and gives the first failure.
func (r *records) wait() error {
	err := <-r.last
	r.last = make(chan error, 1)
	r.last <- err
	return err
}

// record records a block's games played (in one transaction, fenced by the job). A
// game that ended is kept even when the job is being cancelled.
func (w *blockWorker) record(ctx context.Context, block int64, games []store.Match, fence store.Fence) error {
	if len(games) == 0 {
		return nil
	}
	got, err := w.cfg.Store.RecordMatchesFenced(context.WithoutCancel(ctx), games, fence)
	if w.cfg.OnGame != nil {
		for _, m := range got {
			w.cfg.OnGame(m)
		}
	}
	if err != nil {
		return fmt.Errorf("recording block %d: %w", block, err)
	}
	return nil
}

// blockBots are the entrants of b among all (its bots, retired or not) and sus (their
// suspensions). A block with a bot retired or suspended since it was scheduled is not
// played (as `ladder run` leaves it): the job is cancelled and the block stays open.
func blockBots(b store.Block, all []store.Bot, sus []store.Suspension) ([]store.Bot, error) {
	byID := map[int64]store.Bot{}
	for _, bot := range all {
		byID[bot.ID] = bot
	}
	held := map[int64]bool{}
	for _, s := range sus {
		held[s.Bot] = s.Holds()
	}
	bots := make([]store.Bot, len(b.Bots))
	for i, id := range b.Bots {
		bot, ok := byID[id]
		if !ok || !bot.Active() || held[id] {
			return nil, river.JobCancel(fmt.Errorf("block %d: bot %d is retired or suspended; the block stays open", b.ID, id))
		}
		bots[i] = bot
	}
	return bots, nil
}
