package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/logging"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/ladderprom"
	"github.com/arena-games/arena/ladder/queue"
	"github.com/arena-games/arena/ladder/store"
)

// defaultLease is how long a block's job may run (per block it carries) before the
// queue gives it to another worker: River's own default, well above a block at the
// default clock (see blockTimeout).
const defaultLease = time.Hour

// defaultStopTimeout is how long a stopping worker finishes its blocks, and hardStop
// how long it then waits for the rest to be cancelled: together below the 90 s the
// shipped unit (deploy/systemd/arena-worker.service, TimeoutStopSec) gives a stop.
const (
	defaultStopTimeout = time.Minute
	hardStop           = 20 * time.Second
)

func workerCommand() *cli.Command {
	return &cli.Command{
		Name:  "worker",
		Usage: "play the blocks a PostgreSQL ladder's coordinator (arena ladder serve --db postgres://...) enqueues; SIGTERM or Ctrl-C stops softly, a second one at once",
		Flags: append(append(blockPlayFlags(),
			&cli.StringFlag{Name: "game", Usage: "with --board or --deck: also play this game's blocks on that file (games on their defaults are always played)"},
			&cli.DurationFlag{Name: "lease", Value: defaultLease, Usage: "how long a block may run before the queue hands its job to another worker; a job of several blocks (ladder serve --blocks-per-job) has this for each (give every worker of a ladder the same). A worker whose heartbeat stops has its jobs handed back by the coordinator a minute after, whatever their lease"},
			&cli.DurationFlag{Name: "stop-timeout", Value: defaultStopTimeout, Usage: "on SIGTERM or Ctrl-C, finish the blocks under way for at most this long, then stop them (their unplayed games go back to the queue); a second signal stops them at once"},
			&cli.BoolFlag{Name: "live-replays", Usage: "write each game's replay through a file in the cache's replays folder as it is played, so that an `arena ladder serve` sharing this machine's cache shows it live (default: kept in memory until it is stored with its game)"},
			&cli.DurationFlag{Name: "job-timeout", DefaultText: "the longest a block can take at these clock flags", Usage: "stop playing a block after this long; its job's next attempt plays the rest"},
		), append(append(gameOptionFlags(), ladderSandboxFlags()...), append(metricsFlags(workerMetricsAddr), ladderNameFlag())...)...),
		Action: runWorker,
	}
}

// blockTimeout bounds a block at the clock flags: every start of the bots (with their
// restarts), and then each of up to MaxPlayers rotations running every seat's whole
// bank (or the match limit), plus half a minute for the database and the shutdown.
func blockTimeout(c *cli.Context) time.Duration {
	seats := 0
	for _, g := range engine.Names() {
		if spec, err := engine.Lookup(g); err == nil {
			seats = max(seats, spec.MaxPlayers)
		}
	}
	game := time.Duration(seats) * c.Duration("bank")
	if m := c.Duration("match-time"); m > 0 {
		game = min(game, m)
	}
	starts := time.Duration(max(c.Int("max-restarts"), 0) + 1)
	return starts*c.Duration("startup") + time.Duration(seats)*game + arena.DefaultClock().Shutdown + 30*time.Second
}

// workerEntry is how a worker registers: its machine, the engines it plays by, the
// sandbox layers its bots get (player.Layers, which keeps them for the first block).
func workerEntry(player *ladder.ArenaPlayer, slots int) store.Worker {
	host, _ := os.Hostname()
	var layers []string
	if ls, err := player.Layers(); err == nil {
		for _, l := range ls {
			if l.Active {
				layers = append(layers, l.Layer)
			}
		}
	}
	build := metrics.Version()
	if build == "" {
		build = "dev"
	}
	return store.Worker{Host: host, PID: os.Getpid(), Version: build, Engine: queue.Version(), Sandbox: layers, Slots: slots}
}

func runWorker(c *cli.Context) error {
	log, err := commandLogger(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		return fmt.Errorf("worker takes no arguments, got %q", c.Args().First())
	}
	if c.Int("jobs") < 1 {
		return errors.New("--jobs must be at least 1")
	}
	if c.Duration("stop-timeout") < 0 {
		return errors.New("--stop-timeout must not be negative (0 stops the blocks under way at once)")
	}
	if !store.IsPostgresURL(c.String("db")) {
		return errors.New("a worker needs a PostgreSQL ladder: --db postgres://... (an SQLite ladder plays with `arena ladder run`)")
	}
	playProcs(c.Int("jobs"))
	workerGC()
	var opts engine.Options
	if c.IsSet("game") {
		o, err := gameOptions(c, c.String("game"))
		if err != nil {
			return err
		}
		opts = o
	}
	timeout := blockTimeout(c)
	if c.IsSet("job-timeout") {
		timeout = c.Duration("job-timeout")
	}
	sb, _, err := sandboxConfig(c)
	if err != nil {
		return err
	}
	ctx, now, stop := interruptibleInStages(c.Context, log, true)
	defer stop()
	// The worker's start waits on the database and on the sandbox's trial box: the
	// queue's connection (and River's schema check), the store's, and the trial box
	// (for the registry) go side by side. Both pools open the connections the start
	// needs at once (store.WarmPool): River's (queue.ConnectWorker) and the store's,
	// one for each job River's first fetch takes (a block read each, queue.Places).
	queuePool := connectQueue(ctx, c.String("db"))
	defer func() {
		if pool, err := queuePool(); err == nil {
			pool.Close()
		}
	}()
	cache, err := store.DefaultCacheDir(c.String("db"))
	if err != nil {
		return err
	}
	pg, err := store.OpenPostgresWarm(c.Context, c.String("db"), cache, queue.Places(c.Int("jobs")))
	if err != nil {
		return err
	}
	defer pg.Close()
	// Replays wait in a directory of this process until they are stored with their
	// game, so that workers sharing a cache never touch each other's.
	replays, release, err := workerReplayDir(filepath.Join(pg.Dir(), "replays"))
	if err != nil {
		return err
	}
	defer release()
	player := blockPlayer(c, pg, ladder.Sandbox(sb, pg.Dir()), nil, replays)
	player.ReplaysInMemory = !c.Bool("live-replays")
	entry := make(chan store.Worker, 1)
	go func() { entry <- workerEntry(player, c.Int("jobs")) }()
	pool, err := queuePool()
	if err != nil {
		<-entry
		return fmt.Errorf("ladder database %s: %w", pg.Path(), err)
	}
	// River starts (and fetches and reads its first blocks) while the worker
	// registers; its blocks play once it has (Release).
	progress := logging.StartProgress(ctx, log, c.Duration("progress-every"), "games recorded")
	w, err := queue.NewWorker(pool, queue.WorkerConfig{Store: pg, Player: player, Options: opts, Slots: c.Int("jobs"), Held: true,
		Lease: c.Duration("lease"), Timeout: timeout, Log: log,
		OnGame: func(m store.Match) {
			progress.Add(1)
			log.Debug("game recorded", "block", m.Block, "rotation", m.Rotation, "game", m.ID)
		},
		OnJob: func(a queue.BlockArgs, attempt int, err error) {
			if err != nil && !errors.Is(err, context.Canceled) && !queue.HandedBack(err) {
				log.Warn("block attempt failed", "blocks", a.Blocks(), "attempt", attempt, "err", err)
			}
		}})
	if err != nil {
		<-entry
		return err
	}
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		<-entry
		return err
	}
	// A worker that cannot register plays nothing: River hands its jobs back.
	abort := func(err error) error {
		_, _ = w.Shutdown(context.WithoutCancel(ctx), hardStop)
		return err
	}
	// Registered and heartbeating until the River client has stopped.
	alive, gone := context.WithCancel(context.WithoutCancel(ctx))
	defer gone()
	// Registered with its River client's ID: the coordinator hands the jobs of that
	// client back to the queue once the heartbeat goes silent (store.RescueAfter).
	reg := <-entry
	reg.QueueClient = w.ID()
	me, left, err := store.KeepAlive(alive, pg, reg, func(err error) {
		log.Warn("worker heartbeat failed", "err", err)
	})
	if err != nil {
		return abort(fmt.Errorf("registering the worker: %w", err))
	}
	unregister := func() { gone(); <-left }
	defer unregister()
	ms, err := serveWorkerMetrics(c, me.ID, player)
	if err != nil {
		return abort(err)
	}
	if ms != nil {
		defer ms.srv.Close() // the linger closes it too, on the way out of a stop
		player.Observer = ms.ladderObserver()
	}
	ms.watch(ladderprom.Pools(ladderprom.PoolStats{"queue": pool.Stat, "store": pg.PoolStat}))
	ms.watch(ladderprom.Replays(filepath.Join(pg.Dir(), "replays")))
	w.Release(me.ID)
	log.Info(fmt.Sprintf("worker playing %d blocks at once (%s)", c.Int("jobs"), queue.Version()), "worker", me.ID)
	<-ctx.Done()
	finished, err := stopWorker(c, log, w, now)
	// The bots kept between blocks: politely, or at once after a second signal.
	player.Close(now)
	ms.stopped(err, err == nil, false)
	unregister() // before the linger: a lingering worker takes no blocks
	switch {
	case err == nil && finished:
		log.Info("worker stopped; it finished the blocks it was playing")
	case err == nil:
		log.Info("worker stopped; the rest of the blocks it was playing went back to the queue")
	}
	ms.linger(ctx, c.Duration("metrics-linger"))
	// Stopping is how a worker ends (systemd's SIGTERM): exit 0.
	return err
}

// connectQueue starts connecting to the work queue at url (queue.Connect) and returns
// the wait for its pool (the same pool to every caller).
func connectQueue(ctx context.Context, url string) func() (*pgxpool.Pool, error) {
	type conn struct {
		pool *pgxpool.Pool
		err  error
	}
	done := make(chan conn, 1)
	go func() {
		pool, err := queue.ConnectWorker(ctx, url)
		done <- conn{pool, err}
	}()
	return sync.OnceValues(func() (*pgxpool.Pool, error) {
		c := <-done
		return c.pool, c.err
	})
}

// stopWorker stops w softly: it finishes the blocks under way until --stop-timeout
// runs out or now ends (the second signal), then cancels the rest (queue.Shutdown).
func stopWorker(c *cli.Context, log hclog.Logger, w *queue.Worker, now context.Context) (finished bool, err error) {
	limit := c.Duration("stop-timeout")
	log.Info(fmt.Sprintf("worker stopping: it takes no more blocks and finishes those under way (for %v at most)", limit))
	soft, cancel := context.WithTimeout(now, limit)
	defer cancel()
	finished, err = w.Shutdown(soft, hardStop)
	if err != nil {
		err = fmt.Errorf("the blocks under way did not stop within %v (%w); they come back to the queue after their lease", hardStop, err)
	}
	return finished, err
}
