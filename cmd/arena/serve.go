package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/internal/logging"
	"github.com/arena-games/arena/internal/tracing"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/ladderprom"
	"github.com/arena-games/arena/ladder/queue"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// serveFlags are those of `ladder serve` besides the playing flags it shares with run.
func serveFlags() []cli.Flag {
	l := service.DefaultLimits()
	return []cli.Flag{
		&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "serve the pages and the API on host:port (loopback unless told otherwise)"},
		&cli.Int64Flag{Name: "upload-limit", Value: l.Upload >> 20, Usage: "largest bot program an author may submit, in MiB"},
		&cli.IntFlag{Name: "submissions-per-day", Value: l.PerDay, Usage: "submissions per author in 24 hours"},
		&cli.IntFlag{Name: "bots-per-author", Value: l.Bots, Usage: "bot names one author may own"},
		&cli.IntFlag{Name: "concurrent-requests", Value: l.Concurrent, Usage: "requests served at once (each once its body is read); more are answered 503"},
		&cli.Int64Flag{Name: "body-limit", Value: l.Body >> 10, Usage: "largest body of any request but an upload (a login, a form), in KiB"},
		&cli.DurationFlag{Name: "header-timeout", Value: l.HeaderTimeout, Usage: "time a client has to send a request's headers, and then to start its body"},
		&cli.Int64Flag{Name: "min-body-rate", Value: l.BodyRate >> 10, Usage: "slowest a request's body may arrive once it had --header-timeout to start, in KiB/s"},
		&cli.DurationFlag{Name: "body-timeout", Value: l.BodyTimeout, Usage: "time a client has to send a request's whole body, an upload's included"},
		&cli.IntFlag{Name: "login-failures", Value: l.LoginFailures, Usage: "failed logins one address may make at once, given back at that many an hour; more are answered 429"},
		&cli.IntFlag{Name: "submissions-per-address", Value: l.AddressSubmits, Usage: "submissions one address may make at once, given back at that many an hour; more are answered 429"},
		&cli.DurationFlag{Name: "session-lifetime", Value: l.Session, Usage: "how long a login in the browser lasts"},
		&cli.StringSliceFlag{Name: "allowed-origin", Usage: "an origin (https://host[:port]) besides the ladder's own whose pages may post to it, e.g. a proxy's public address when it rewrites Host; repeatable"},
		&cli.IntFlag{Name: "queue-depth", Value: 8, Usage: "postgres:// ladders: blocks kept waiting in the queue ahead of the workers (arena worker) at least; more for many worker slots or a fast pace"},
		&cli.IntFlag{Name: "blocks-per-job", Value: defaultBlocksPerJob, Usage: fmt.Sprintf("postgres:// ladders: blocks in one job of the queue, which a worker takes, reads and completes at once and plays one by one (1 to %d); a stopping worker hands back a job's blocks not begun, and a killed one's come back a minute after its last heartbeat", queue.MaxPerJob)},
		&cli.IntFlag{Name: "live-streams", Value: l.Streams, Usage: "live games (and games of people) watched at once; more are answered 503"},
		&cli.IntFlag{Name: "games-per-person", Value: l.PersonGames, Usage: "unrated games one author may play in the browser at once"},
		&cli.DurationFlag{Name: "live-delay", Usage: "show each move of a game in progress this long after it was made (the live pages show only what every seat sees, so none is needed for fair play)"},
		&cli.StringFlag{Name: "smoke-game", Usage: "the game submitted bots are smoke-tested in (default: the ladder's game)"},
	}
}

// ladderServe owns a ladder for good: it plays rounds of ladder.Run (the loop `ladder
// run` uses) and serves the ladder's pages and API. A round ends, after its blocks
// under way, when an author's bots change, so that a new bot plays from the next one.
// SIGTERM or Ctrl-C stops it; games in flight are dropped and the next start resumes
// their blocks.
func ladderServe(c *cli.Context) error {
	log, err := commandLogger(c)
	if err != nil {
		return err
	}
	if err := checkServeFlags(c); err != nil {
		return err
	}
	st, err := openLadder(c)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ls, err := newLadderSession(ctx, c, st)
	if err != nil {
		return err
	}
	defer ls.close(ctx)
	smokeGame := c.String("smoke-game")
	if smokeGame == "" {
		smokeGame = c.String("game")
	}
	changed := make(chan struct{}, 1)
	player := ls.cfg.Player.(*ladder.ArenaPlayer)
	svc, err := service.New(service.Config{Store: st, Authors: st, Game: ls.game,
		Submit: func(ctx context.Context, name, path string) (store.Bot, error) {
			opt := addOptions(smokeGame, name, &ls.sb)
			opt.Path = path
			return ladder.AddBot(ctx, st, opt)
		},
		Changed: func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
		Limits: serviceLimits(c), Origins: c.StringSlice("allowed-origin"), LockHeld: lockHeld(st),
		Replays: filepath.Join(st.Dir(), "replays"), LiveDelay: c.Duration("live-delay"),
		Launch: personLaunch(st, ls), Clock: player.Clock, GameOptions: player.Options,
		Log: logging.Slog(log)})
	if err != nil {
		return err
	}
	if err := svc.Refit(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.String("addr"))
	if err != nil {
		return fmt.Errorf("--addr %s: %w", c.String("addr"), err)
	}
	srv := svc.Server()
	srv.Handler = ls.ms.instrumentHTTP(srv.Handler)
	if tracing.Enabled() {
		srv.Handler = service.Trace(srv.Handler)
	}
	srv.BaseContext = func(net.Listener) context.Context { return ctx }
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info(fmt.Sprintf("serving the %s ladder on http://%s/", ls.game, ln.Addr()))
	go repeat(ctx, c.Duration("refresh"), func() { _ = svc.Refit(ctx) })

	if pg, ok := st.(*store.Postgres); ok {
		if err := coordinate(ctx, c, ls, pg, changed); err != nil {
			ls.ms.stopped(err, false, false)
			ls.failed(err)
			_ = srv.Close()
			return err
		}
	} else {
		playRounds(ctx, c, ls, svc, changed)
	}

	ls.ms.stopped(nil, ctx.Err() != nil && c.Context.Err() == nil, false)
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	svc.Close() // the games of people under way, and their bots
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped; games in flight were dropped and the next start resumes their blocks")
	return nil
}

// checkServeFlags refuses arguments, and counts and times that must be positive.
func checkServeFlags(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("ladder serve takes no arguments, got %q", c.Args().First())
	}
	if c.Int("jobs") < 1 || c.Int64("upload-limit") < 1 || c.Int("submissions-per-day") < 1 || c.Int("bots-per-author") < 1 || c.Int("concurrent-requests") < 1 || c.Int("queue-depth") < 1 ||
		c.Int64("body-limit") < 1 || c.Int64("min-body-rate") < 1 || c.Int("login-failures") < 1 || c.Int("submissions-per-address") < 1 ||
		c.Int("live-streams") < 1 || c.Int("games-per-person") < 1 {
		return fmt.Errorf("--jobs, --upload-limit, --submissions-per-day, --bots-per-author, --concurrent-requests, --queue-depth, --body-limit, --min-body-rate, --login-failures, --submissions-per-address, --live-streams and --games-per-person must be at least 1")
	}
	if n := c.Int("blocks-per-job"); n < 1 || n > queue.MaxPerJob {
		return fmt.Errorf("--blocks-per-job must be 1 to %d, got %d", queue.MaxPerJob, n)
	}
	if c.Duration("header-timeout") <= 0 || c.Duration("body-timeout") <= 0 || c.Duration("session-lifetime") <= 0 {
		return fmt.Errorf("--header-timeout, --body-timeout and --session-lifetime must be positive")
	}
	if c.Duration("live-delay") < 0 {
		return fmt.Errorf("--live-delay must not be negative")
	}
	return nil
}

// serviceLimits are the service's limits as the flags set them.
func serviceLimits(c *cli.Context) service.Limits {
	return service.Limits{Upload: c.Int64("upload-limit") << 20, PerDay: c.Int("submissions-per-day"),
		Bots: c.Int("bots-per-author"), Concurrent: c.Int("concurrent-requests"), Body: c.Int64("body-limit") << 10,
		HeaderTimeout: c.Duration("header-timeout"), BodyRate: c.Int64("min-body-rate") << 10, BodyTimeout: c.Duration("body-timeout"),
		LoginFailures: c.Int("login-failures"), AddressSubmits: c.Int("submissions-per-address"), Session: c.Duration("session-lifetime"),
		Streams: c.Int("live-streams"), PersonGames: c.Int("games-per-person")}
}

// defaultBlocksPerJob is how many blocks a coordinator's job carries: a worker's fetch,
// read and completion of a job (about 0.6 ms of PostgreSQL's time, against 1.3 ms
// for a block's two games' records) then come once for sixteen blocks (measured
// against four: 0.93 of the worker's whole CPU a game, 0.81 of PostgreSQL's). What
// kept it at four is paid otherwise now: a killed worker's jobs come back a minute
// after its last heartbeat (store.RescueAfter), not after a lease per block; a worker
// stopping finishes the block under way and hands the rest of its jobs back at once;
// a bot retired or suspended is seen between a job's blocks (a read at most a second
// old).
const defaultBlocksPerJob = 16

// coordinate has workers play a PostgreSQL ladder (arena worker): it keeps the work
// queue --queue-depth blocks ahead of them, choosing tables as `ladder run` does and
// afresh every --refresh or when an author's bots change, until ctx ends. It fails
// when the ladder's run lock is lost.
func coordinate(ctx context.Context, c *cli.Context, ls *ladderSession, pg *store.Postgres, changed <-chan struct{}) error {
	pool, err := queue.Connect(ctx, c.String("db"))
	if err != nil {
		return fmt.Errorf("ladder database %s: %w", pg.Path(), err)
	}
	defer pool.Close()
	ls.ms.watch(ladderprom.Pools(ladderprom.PoolStats{"queue": pool.Stat, "store": pg.PoolStat}))
	co, err := queue.NewCoordinator(pool, queue.CoordinatorConfig{Store: pg, Schedule: ls.cfg, Depth: c.Int("queue-depth"),
		PerJob: c.Int("blocks-per-job"), Rescan: c.Duration("refresh"), Log: mustLogger(c).Named("coordinator")})
	if err != nil {
		return err
	}
	go func() {
		for {
			select {
			case <-changed:
				co.Rescan()
			case <-ctx.Done():
				return
			}
		}
	}()
	mustLogger(c).Info(fmt.Sprintf("coordinating the %s ladder: blocks are played by `arena worker --db URL`", ls.game))
	return co.Run(ctx)
}

// playRounds runs the ladder until ctx ends. A round that cannot start (too few bots)
// or fails (a bot disqualified) waits for a change of bots or a minute, and the
// service keeps serving meanwhile.
func playRounds(ctx context.Context, c *cli.Context, ls *ladderSession, svc *service.Service, changed <-chan struct{}) {
	rounds := ladder.NewRounds(ls.cfg) // reads the history once, then what changed
	for ctx.Err() == nil {
		until, ended := make(chan struct{}), make(chan struct{})
		go func() {
			select {
			case <-changed:
				close(until)
			case <-ended:
			}
		}()
		sum, err := rounds.Run(ctx, until)
		close(ended)
		if sum.Recorded > 0 || ctx.Err() != nil {
			ls.ms.refit(context.WithoutCancel(ctx))
			_ = svc.Refit(context.WithoutCancel(ctx))
		}
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			continue
		}
		if errors.Is(err, ladder.ErrTooFewBots) {
			mustLogger(c).Info("waiting for bots", "err", err)
		} else {
			mustLogger(c).Error("round stopped; next round after a change of bots or a minute", "err", err)
		}
		select {
		case <-changed:
		case <-time.After(time.Minute):
		case <-ctx.Done():
		}
	}
}

// personLaunch starts a ladder bot for a person's game in the browser as the ladder's
// blocks start it: from the store, checked against its digest, in the ladder's
// sandbox, with the CPU time arena.Run gives a run of one game (two banks and a
// minute).
func personLaunch(st store.Store, ls *ladderSession) func(store.Bot) (protocol.LaunchConfig, error) {
	launch := ladder.Launch(st, builtinLaunch)
	bank := ls.cfg.Player.(*ladder.ArenaPlayer).Clock.Bank
	return func(b store.Bot) (protocol.LaunchConfig, error) {
		lc, err := launch(b)
		if err != nil {
			return lc, err
		}
		lc.Sandbox = ls.sb
		if lc.Sandbox.Limits.CPUTime == 0 {
			lc.Sandbox.Limits.CPUTime = 2*bank + time.Minute
		}
		return lc, nil
	}
}

// lockHeld is how /readyz checks the run lock ladder serve took: a server database's
// can be lost with its connection; a file's lasts as long as the process.
func lockHeld(st store.Store) func(context.Context) error {
	if pg, ok := st.(*store.Postgres); ok {
		return pg.RunLockHeld
	}
	return nil
}
