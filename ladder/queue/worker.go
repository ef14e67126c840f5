package queue

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	// Lease is how long a job may run before the queue's leader hands it to another
	// worker (River's RescueStuckJobsAfter); every worker of a ladder should agree.
	Lease time.Duration
	// Timeout cancels a block's play after this long (it must be shorter than Lease);
	// the rotations recorded stay, the rest are played by the job's next attempt.
	Timeout time.Duration
	// Worker is this worker's ID in the store's registry (store.KeepAlive), recorded
	// with each of its games; 0 for none.
	Worker int64
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
}

// NewWorker is the River client of a worker, not yet started (Start; StopAndCancel on
// the way out cancels the blocks under way, whose games in flight are dropped).
func NewWorker(pool *pgxpool.Pool, cfg WorkerConfig) (*Worker, error) {
	if cfg.Slots < 1 || cfg.Store == nil || cfg.Player == nil {
		return nil, errors.New("a worker needs a store, a player and at least one slot")
	}
	if cfg.Timeout <= 0 || cfg.Timeout >= cfg.Lease {
		return nil, fmt.Errorf("a block's time limit (%v, --job-timeout) must be positive and shorter than the lease (%v, --lease)", cfg.Timeout, cfg.Lease)
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely[BlockArgs](workers, &blockWorker{cfg: cfg}); err != nil {
		return nil, err
	}
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Queues:               map[string]river.QueueConfig{Queue: {MaxWorkers: cfg.Slots}},
		Workers:              workers,
		JobTimeout:           cfg.Timeout,
		RescueStuckJobsAfter: cfg.Lease,
		RetryPolicy:          retryPolicy{},
		Logger:               logger(cfg.Log),
		// Completed jobs are history the ladder keeps itself (its games).
		CompletedJobRetentionPeriod: time.Hour,
	})
	if err != nil {
		return nil, err
	}
	return &Worker{c}, nil
}

type blockWorker struct {
	river.WorkerDefaults[BlockArgs]
	cfg WorkerConfig
}

// snooze is how long a job this worker cannot play waits for another worker.
const snooze = time.Minute

func (w *blockWorker) Work(ctx context.Context, job *river.Job[BlockArgs]) (err error) {
	if w.cfg.OnJob != nil {
		defer func() { w.cfg.OnJob(job.Args, job.Attempt, err) }()
	}
	args := job.Args
	if args.Version != Version() {
		return river.JobSnooze(snooze)
	}
	player := *w.cfg.Player
	player.Options = nil
	if strings.Contains(args.Game, "@") {
		player.Options = w.cfg.Options
	}
	if engine.Variant(engine.VariantGame(args.Game), player.Options) != args.Game {
		return river.JobSnooze(snooze)
	}
	st := w.cfg.Store
	b, err := st.Block(ctx, args.Block)
	if errors.Is(err, store.ErrNotFound) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	bots, err := blockBots(ctx, st, b)
	if err != nil {
		return err
	}
	if b.Rotations == len(b.Done) {
		return nil
	}
	fence := store.Fence{Job: job.ID, Attempt: job.Attempt}
	done := map[int]bool{}
	for _, r := range b.Done {
		done[r] = true
	}
	return player.PlayBlock(ctx, b, bots, func(m store.Match) error {
		if done[m.Rotation] {
			return nil
		}
		m.Block, m.Game, m.Worker = b.ID, b.Game, w.cfg.Worker
		// A game that ended is kept even when the job is being cancelled.
		rec, err := st.RecordMatchFenced(context.WithoutCancel(ctx), m, fence)
		if errors.Is(err, store.ErrDuplicate) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("recording block %d rotation %d: %w", b.ID, m.Rotation, err)
		}
		if w.cfg.OnGame != nil {
			w.cfg.OnGame(rec)
		}
		return nil
	})
}

// blockBots are the entrants of b. A block with a bot retired or suspended since it
// was scheduled is not played (as `ladder run` leaves it): the job is cancelled and
// the block stays open.
func blockBots(ctx context.Context, st store.Store, b store.Block) ([]store.Bot, error) {
	all, err := st.Bots(ctx, true)
	if err != nil {
		return nil, err
	}
	sus, err := st.Suspensions(ctx)
	if err != nil {
		return nil, err
	}
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
