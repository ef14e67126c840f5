package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/queue/jobtable"
	"github.com/arena-games/arena/ladder/store"
)

// CoordinatorConfig is one coordinator of a ladder's game.
type CoordinatorConfig struct {
	// Store is the ladder's database.
	Store *store.Postgres
	// Schedule is the ladder as `ladder run` plays it: Store (Store, or a store
	// wrapping it), Game, Players, Seed, MaxForfeitShare, OnSuspend.
	Schedule ladder.RunConfig
	// Depth is how many blocks wait in the queue ahead of the workers at least; more
	// when the workers alive have more slots between them (a job's PerJob blocks wait
	// per slot, so that a worker finishing a job finds the next at once however big
	// the fleet), or take more in two Ticks at their pace (see paced).
	Depth int
	// Rescan is how often the scheduler catches up with the recorded games (the live
	// ratings, games per bot, suspensions, new and retired bots); each reads only the
	// games recorded since the last.
	Rescan time.Duration
	// Tick is how often the queue is topped up (default a second).
	Tick time.Duration
	// PerJob is how many blocks a job carries (0: 1, at most MaxPerJob): a worker
	// fetches, reads and completes them together, once, and plays and records them
	// one by one. Depth and the fleet's slots count blocks: one job waits per slot.
	PerJob int
	// Log receives River's lines and the coordinator's: its waits, its failed
	// ticks, the workers it sees go (nil: none).
	Log hclog.Logger
}

// Coordinator keeps a ladder's queue of blocks filled. Only one may run per ladder:
// the caller holds the ladder's run lock (ladder.LockStore, the advisory lock of
// `ladder run`), and the coordinator stops when the lock is found lost (a server
// restart drops it).
type Coordinator struct {
	cfg    CoordinatorConfig
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
	st     *store.Postgres
	sched  *ladder.Scheduler
	built  time.Time
	rescan atomic.Bool
	// known are the blocks open at the last tick and made since; from is past the
	// highest block ID seen (openBlocks).
	known []int64
	from  int64
	// low is set by a Fill that found fewer than half the blocks the last one left
	// waiting: the workers may outrun the refill, and the next comes sooner. waited
	// is how long Run waited before this Fill (0: Fill called alone).
	low    bool
	waited time.Duration
	// pace is the depth the workers' pace asks for (see paced); left and filled are
	// the blocks left waiting by the last Fill and when it ended.
	pace   int
	left   int
	filled time.Time
	now    func() time.Time
	// fleet is what the coordinator last saw of the workers (watchFleet).
	fleet fleetWatch
	// refill takes Fill's new blocks and their jobs in transactions of a few.
	refill *refill
}

// Rescan has the next tick choose tables afresh (an author's bots changed).
func (c *Coordinator) Rescan() { c.rescan.Store(true) }

// NewCoordinator is a coordinator enqueueing through pool.
func NewCoordinator(pool *pgxpool.Pool, cfg CoordinatorConfig) (*Coordinator, error) {
	st := cfg.Store
	if st == nil || cfg.Schedule.Store == nil {
		return nil, errors.New("a coordinator needs a PostgreSQL ladder")
	}
	if cfg.Depth < 1 {
		return nil, fmt.Errorf("a queue depth of %d: at least 1", cfg.Depth)
	}
	if cfg.Tick <= 0 {
		cfg.Tick = time.Second
	}
	if cfg.PerJob == 0 {
		cfg.PerJob = 1
	}
	if cfg.PerJob < 1 || cfg.PerJob > MaxPerJob {
		return nil, fmt.Errorf("%d blocks a job: 1 to %d", cfg.PerJob, MaxPerJob)
	}
	if cfg.Log == nil {
		cfg.Log = hclog.NewNullLogger()
	}
	client, err := NewInserter(pool, cfg.Log)
	if err != nil {
		return nil, err
	}
	c := &Coordinator{pool: pool, client: client, st: st, now: time.Now, refill: &refill{pool: pool, perJob: cfg.PerJob,
		enqueue: func(ctx context.Context, tx pgx.Tx, jobs []river.InsertManyParams) error {
			_, err := client.InsertManyTx(ctx, tx, jobs)
			return err
		}}}
	cfg.Schedule.Store = withJob{Store: cfg.Schedule.Store, pg: st, enqueue: c.enqueueTx, refill: c.refill}
	c.cfg = cfg
	return c, nil
}

// withJob is the ladder's store as the scheduler sees it, but a new block is recorded
// with its job in one transaction: a coordinator killed between the two would
// otherwise leave a block nobody plays until the next coordinator looks for them.
type withJob struct {
	store.Store
	pg      *store.Postgres
	enqueue func(context.Context, pgx.Tx, store.Block) error
	// refill, when it has a transaction open (Fill), takes the block and its job.
	refill *refill
}

func (w withJob) NewBlock(ctx context.Context, b store.Block) (store.Block, error) {
	if w.refill != nil && w.refill.tx != nil {
		return w.refill.add(ctx, b)
	}
	return w.pg.NewBlockThen(ctx, b, w.enqueue)
}

// MaxPerJob bounds CoordinatorConfig.PerJob: a killed worker's job comes back after
// a lease per block it carries, and a stopping worker hands back all but the block
// under way.
const MaxPerJob = 64

// refill records a Fill's new blocks and their jobs in transactions of up to
// refillChunk blocks: a block and its job in a transaction of their own took four
// round trips (begin, the block, the job, commit), half the coordinator's CPU in a
// profile. A chunk reserves its blocks' IDs in one round trip as it begins, queues
// each block's insert as the scheduler chooses it, and sends them together as it
// commits, with the chunk's jobs after them: five round trips a chunk (begin, the IDs,
// the blocks, the jobs, commit) rather than one a block. A block and its job are
// still committed together or not at all. Each job carries perJob of the chunk's
// blocks (the last one the rest).
type refill struct {
	pool   *pgxpool.Pool
	perJob int
	// enqueue inserts a chunk's jobs in its transaction (River's InsertManyTx).
	enqueue func(context.Context, pgx.Tx, []river.InsertManyParams) error
	tx      pgx.Tx
	// ids are the chunk's block IDs reserved and not yet given; inserts are its
	// blocks' inserts, sent at the commit.
	ids     []int64
	inserts *pgx.Batch
	game    string
	blocks  []int64
}

// refillChunk is the most blocks a refill commits at once: the workers see a chunk's
// blocks only once it is committed.
const refillChunk = 32

// add queues block b's insert under the chunk's next reserved ID (beyond them, it is
// inserted at once).
func (r *refill) add(ctx context.Context, b store.Block) (store.Block, error) {
	var err error
	if len(r.ids) > 0 {
		b.ID = r.ids[0]
		if b, err = store.QueueNewBlock(r.inserts, b); err == nil {
			r.ids = r.ids[1:]
		}
	} else {
		b, err = store.NewBlockTx(ctx, r.tx, b)
	}
	if err != nil {
		return b, err
	}
	r.game, r.blocks = b.Game, append(r.blocks, b.ID)
	return b, nil
}

// jobs are the jobs of blocks of game, perJob blocks each (the last one the rest).
func jobs(game string, blocks []int64, perJob int) []river.InsertManyParams {
	var js []river.InsertManyParams
	for len(blocks) > 0 {
		n := min(perJob, len(blocks))
		js = append(js, river.InsertManyParams{Args: jobArgs(game, blocks[:n])})
		blocks = blocks[n:]
	}
	return js
}

// begin opens the next chunk's transaction, for n blocks at most, unless one is open.
func (r *refill) begin(ctx context.Context, n int) error {
	if r.tx != nil {
		return nil
	}
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return err
	}
	ids, err := store.ReserveBlockIDs(ctx, tx, n)
	if err != nil {
		_ = tx.Rollback(ctx)
		return fmt.Errorf("reserving %d block IDs: %w", n, err)
	}
	r.tx, r.ids, r.inserts = tx, ids, &pgx.Batch{}
	return nil
}

// commit enqueues the chunk's jobs and commits it with its blocks (nothing open: nil).
func (r *refill) commit(ctx context.Context) error {
	tx, blocks, inserts := r.tx, r.blocks, r.inserts
	r.tx, r.blocks, r.ids, r.inserts = nil, nil, nil, nil
	if tx == nil {
		return nil
	}
	defer tx.Rollback(ctx)
	if inserts != nil && inserts.Len() > 0 {
		if err := tx.SendBatch(ctx, inserts).Close(); err != nil {
			return fmt.Errorf("recording %d blocks: %w", inserts.Len(), err)
		}
	}
	if len(blocks) > 0 {
		if err := r.enqueue(ctx, tx, jobs(r.game, blocks, r.perJob)); err != nil {
			return fmt.Errorf("enqueueing %d blocks: %w", len(blocks), err)
		}
	}
	return tx.Commit(ctx)
}

// Run tops the queue up every Tick until ctx ends or the run lock is lost; after a
// refill that found the queue low (the workers took more than half of it within the
// wait), the next comes at a tenth of Tick: waiting a whole Tick then left a worker
// of 40 blocks a second idle for most of a second, several times a run. A tick that fails (the database
// restarting) is retried at the next.
//
// A worker that joins (registers) makes the next refill come at once, and those of the
// Tick after it at a tenth of Tick, until its pace shows: a worker joining a queue of
// Depth blocks took them all within a fraction of a second and then stood idle until
// the next Tick (0.85 s of a 3.7 s run with two built-in bots).
func (c *Coordinator) Run(ctx context.Context) error {
	t := time.NewTimer(c.cfg.Tick)
	defer t.Stop()
	joined := c.st.WorkersJoining(ctx)
	var hurry time.Time // refills come at a tenth of Tick until then
	for {
		c.low = false
		if err := c.st.RunLockHeld(ctx); err != nil && ctx.Err() == nil {
			if errors.Is(err, store.ErrInUse) {
				return err
			}
			c.cfg.Log.Error("the run lock cannot be checked", "err", err)
		} else if err := c.Fill(ctx); err != nil && ctx.Err() == nil {
			c.cfg.Log.Warn("filling the queue", "err", err)
		}
		c.watchFleet(ctx)
		next := c.cfg.Tick
		if c.low || time.Now().Before(hurry) {
			next /= 10
		}
		c.waited = next
		t.Reset(next)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-joined:
			hurry = time.Now().Add(c.cfg.Tick)
			c.waited = min(c.waited, c.cfg.Tick/10) // the pace's floor: the wait was cut short
		}
	}
}

// Fill enqueues the open blocks that have no job (their coordinator died between
// recording the block and enqueueing it) and new blocks until Depth of them wait.
func (c *Coordinator) Fill(ctx context.Context) error {
	open, err := c.openBlocks(ctx)
	if err != nil {
		return err
	}
	if err := c.schedule(ctx, open); err != nil {
		return err // too few bots: waits
	}
	q, err := c.queued(ctx)
	if err != nil {
		return err
	}
	if err := c.cancelStale(ctx, q.stale); err != nil {
		return err
	}
	waiting := q.waiting
	var orphans []int64
	for _, b := range open {
		if !q.live[b.ID] && c.sched.Playable(b) {
			orphans = append(orphans, b.ID)
		}
	}
	if len(orphans) > 0 {
		if _, err := c.client.InsertMany(ctx, jobs(c.cfg.Schedule.Game, orphans, c.cfg.PerJob)); err != nil {
			return fmt.Errorf("enqueueing blocks %v: %w", orphans, err)
		}
		waiting += len(orphans)
	}
	depth, err := c.depth(ctx)
	if err != nil {
		return err
	}
	low := waiting == 0 || 2*waiting < c.left
	depth = max(depth, c.paced(waiting))
	// Whole jobs: the blocks wanted, rounded up to PerJob.
	want := depth - waiting
	if want > 0 {
		want += (c.cfg.PerJob - want%c.cfg.PerJob) % c.cfg.PerJob
	}
	made, err := c.newBlocks(ctx, want)
	if err != nil {
		return err
	}
	waiting += made
	c.left, c.filled = waiting, c.now()
	// Only a refill that worked hurries the next: one that cannot choose a table
	// (too few bots) waits a whole Tick.
	c.low = low
	return nil
}

// newBlocks has the scheduler choose n new blocks, recorded with their jobs in
// transactions of refillChunk blocks, and returns how many were.
func (c *Coordinator) newBlocks(ctx context.Context, n int) (int, error) {
	made := 0
	// A chunk holds whole jobs.
	chunk := max(refillChunk-refillChunk%c.cfg.PerJob, c.cfg.PerJob)
	for made < n {
		k, err := c.newChunk(ctx, min(chunk, n-made))
		made += k
		if err != nil {
			return made, err
		}
	}
	return made, nil
}

// newChunk records up to n new blocks with their jobs in one transaction, and
// returns how many it committed. The scheduler counts a block as planned once it is
// chosen: when the chunk is not committed, the scheduler is built afresh from the
// ladder at the next Fill, so that blocks never recorded do not weigh on its choice
// of tables.
func (c *Coordinator) newChunk(ctx context.Context, n int) (int, error) {
	if err := c.refill.begin(ctx, n); err != nil {
		return 0, err
	}
	k := 0
	var chose error
	for ; k < n; k++ {
		b, err := c.sched.NewBlock(ctx)
		if err != nil {
			chose = err
			break
		}
		c.known, c.from = append(c.known, b.ID), max(c.from, b.ID+1)
	}
	if err := c.refill.commit(ctx); err != nil {
		if k > 0 {
			c.sched = nil
		}
		if chose != nil {
			return 0, chose // what aborted the transaction
		}
		return 0, err
	}
	return k, chose
}

// openBlocks lists the game's open blocks: at the first tick by counting the games of
// every block, then among those open at the last tick, those made since and any of a
// higher ID (a complete block stays complete), so that a tick's cost does not grow
// with the blocks ever played.
func (c *Coordinator) openBlocks(ctx context.Context) ([]store.Block, error) {
	open, err := c.st.OpenBlocksAmong(ctx, c.cfg.Schedule.Game, c.known, c.from)
	if err != nil {
		return nil, err
	}
	c.known = c.known[:0]
	for _, b := range open {
		c.known = append(c.known, b.ID)
		c.from = max(c.from, b.ID+1)
	}
	return open, nil
}

// schedule reads the ladder once, for the first tick, and at every Rescan catches the
// scheduler up with it: the games recorded since (not the history), the bots and the
// suspensions.
func (c *Coordinator) schedule(ctx context.Context, open []store.Block) error {
	if c.sched == nil {
		cfg := c.cfg.Schedule
		cfg.Seed += uint64(time.Now().UnixNano()) // each coordinator draws other tables
		s, err := ladder.NewScheduler(ctx, cfg, open)
		if s == nil {
			return err
		}
		c.sched, c.built = s, time.Now()
		return err
	}
	if time.Since(c.built) < c.cfg.Rescan && !c.rescan.Swap(false) {
		return nil
	}
	c.built = time.Now()
	return c.sched.Update(ctx, open)
}

// enqueueTx puts block b's job in the queue for this version, in tx (a block and its
// job are written together).
func (c *Coordinator) enqueueTx(ctx context.Context, tx pgx.Tx, b store.Block) error {
	if _, err := c.client.InsertTx(ctx, tx, jobArgs(b.Game, []int64{b.ID}), nil); err != nil {
		return fmt.Errorf("enqueueing block %d: %w", b.ID, err)
	}
	return nil
}

// queue is the game's block jobs as the coordinator sees them.
type queue struct {
	// live: the blocks with a job not completed or cancelled (jobtable.Live), but for
	// those in stale.
	live map[int64]bool
	// waiting counts this version's jobs not yet taken (jobtable.Waiting).
	waiting int
	// stale are the waiting jobs an arena of another Version enqueued.
	stale []int64
}

// listPage is how many jobs one JobList call reads.
const listPage = 1000

// queued lists the game's live block jobs through River's JobList.
func (c *Coordinator) queued(ctx context.Context) (queue, error) {
	q := queue{live: map[int64]bool{}}
	waiting := map[rivertype.JobState]bool{}
	for _, s := range jobtable.Waiting {
		waiting[s] = true
	}
	params := river.NewJobListParams().Kinds(Kind).Queues(Queue).States(jobtable.Live...).First(listPage)
	for {
		res, err := c.client.JobList(ctx, params)
		if err != nil {
			return queue{}, err
		}
		for _, j := range res.Jobs {
			var a BlockArgs
			if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
				return queue{}, fmt.Errorf("job %d: its arguments: %w", j.ID, err)
			}
			switch {
			case a.Game != c.cfg.Schedule.Game:
			case waiting[j.State] && a.Version != Version():
				q.stale = append(q.stale, j.ID)
			default:
				for _, b := range a.Blocks() {
					q.live[b] = true
				}
				if waiting[j.State] {
					q.waiting += 1 + len(a.More)
				}
			}
		}
		if len(res.Jobs) < listPage {
			return q, nil
		}
		params = params.After(res.LastCursor)
	}
}

// cancelStale cancels the game's waiting jobs that an arena of another Version
// enqueued (before an upgrade): workers of this version snooze them for ever, and
// they would fill the queue's depth for good. Their blocks, open and without a live
// job, are enqueued again for this version by the same Fill. Jobs under way are left
// to finish.
func (c *Coordinator) cancelStale(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if _, err := c.client.JobCancel(ctx, id); err != nil && !errors.Is(err, river.ErrNotFound) {
			return fmt.Errorf("cancelling another version's job %d: %w", id, err)
		}
	}
	if len(ids) > 0 {
		c.cfg.Log.Info("cancelled the queued blocks of another arena version; they are enqueued again for this one", "blocks", len(ids))
	}
	return nil
}

// maxPace bounds the depth the workers' pace can ask for: a queue deeper than this
// only holds tables chosen from older ratings for longer.
const maxPace = 1000

// paced is the depth that lasts the workers two Ticks at the pace they took blocks
// since the last Fill, which left c.left waiting: a fleet faster than Depth blocks a
// Tick would otherwise find the queue empty before every refill. The pace is counted
// over the wait before this Fill at least (a Tick, or a tenth after a low queue), so
// that a burst (workers starting together) asks for twice the blocks it took, not
// that many per millisecond. When the pace drops, the depth halves each Fill rather
// than at once.
func (c *Coordinator) paced(waiting int) int {
	now := c.now()
	want := 0
	if !c.filled.IsZero() && c.left > waiting {
		floor := c.cfg.Tick
		if c.waited > 0 {
			floor = c.waited
		}
		took := max(now.Sub(c.filled), floor)
		want = int(math.Ceil(float64(c.left-waiting) * float64(2*c.cfg.Tick) / float64(took)))
	}
	c.pace = max(c.pace/2, min(want, maxPace))
	return c.pace
}

// depth is how many blocks should wait: Depth, or a job for each slot of the workers
// alive (heartbeat within store.AliveWindow) when they have more.
func (c *Coordinator) depth(ctx context.Context) (int, error) {
	var slots int
	err := c.pool.QueryRow(ctx, `SELECT COALESCE(SUM(slots), 0) FROM workers
		WHERE stopped IS NULL AND heartbeat > now() - make_interval(secs => $1)`, store.AliveWindow.Seconds()).Scan(&slots)
	return max(c.cfg.Depth, slots*c.cfg.PerJob), err
}
