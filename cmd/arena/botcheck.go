package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"google.golang.org/grpc/health/grpc_health_v1"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// botCheckCommand is `check PATH`, a compliance check for bot authors: it starts the
// bot in the arena's sandbox and checks its handshake, its health service, a whole
// match in each game (against the built-in random bot) with its timing, and a clean
// exit. It prints one line per check and fails when any check fails. It hangs under
// `arena bot`.
func botCheckCommand() *cli.Command {
	d := arena.DefaultClock()
	return &cli.Command{
		Name:      "check",
		Usage:     "check that a bot program is ready for the arena: handshake, health, a match in each game, timing, clean exit",
		ArgsUsage: "PATH  (a bot program)",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "game", Usage: "a game the bot plays (repeatable; default: every game)"},
			&cli.DurationFlag{Name: "decision", Value: d.Decision, Usage: "time allowed per decision"},
			&cli.DurationFlag{Name: "startup", Value: d.Startup, Usage: "time allowed for the bot to start"},
			&cli.DurationFlag{Name: "shutdown", Value: d.Shutdown, Usage: "time allowed for the bot to exit when asked"},
		}, sandboxFlags()[0], botReadFlag()),
		Action: runBotCheck,
	}
}

// withSubcommands hangs more subcommands under a command (`check` under `bot`).
func withSubcommands(c *cli.Command, subs ...*cli.Command) *cli.Command {
	c.Subcommands = append(c.Subcommands, withUsageErrors(subs...)...)
	return c
}

// checker prints each check's verdict and remembers failures.
type checker struct {
	w      io.Writer
	failed []string
}

func (k *checker) pass(name, format string, a ...any) {
	fmt.Fprintf(k.w, "PASS  %-22s %s\n", name, fmt.Sprintf(format, a...))
}

func (k *checker) fail(name, format string, a ...any) {
	fmt.Fprintf(k.w, "FAIL  %-22s %s\n", name, fmt.Sprintf(format, a...))
	k.failed = append(k.failed, name)
}

func (k *checker) warn(name, format string, a ...any) {
	fmt.Fprintf(k.w, "WARN  %-22s %s\n", name, fmt.Sprintf(format, a...))
}

func runBotCheck(c *cli.Context) error {
	path, games, sb, err := botCheckTarget(c)
	if err != nil {
		return err
	}
	k := &checker{w: c.App.Writer}
	layers, err := sb.Layers()
	if err != nil {
		return err
	}
	var active []string
	for _, l := range layers {
		if l.Active {
			active = append(active, l.Layer)
		}
	}
	fmt.Fprintf(k.w, "checking %s (sandbox %s: %s)\n", path, sb.Level, strings.Join(active, ", "))

	// Handshake and health, on a process of its own.
	proc := k.start(c, path, sb)
	if proc == nil {
		fmt.Fprintln(k.w, "the bot does not start: see protocol/PROTOCOL.md, \"1. Start\", for the handshake")
		return cli.Exit(fmt.Sprintf("%s is not ready: %s failed", path, strings.Join(k.failed, ", ")), 1)
	}
	// A whole match per game, in every seat of one deal, against the random bot.
	for _, g := range games {
		if err := k.play(c, g, path, sb); err != nil {
			return err
		}
	}
	start := time.Now()
	if proc.Shutdown(c.Duration("shutdown")) {
		k.pass("shutdown", "exited %s after being asked", time.Since(start).Round(time.Millisecond))
	} else {
		k.fail("shutdown", "still running %s after being asked to exit; killed (serve go-plugin's controller, plugin.GRPCController in protocol/controller.proto, and exit after answering its Shutdown: the arena sends no signal before it kills)", c.Duration("shutdown"))
	}
	if len(k.failed) > 0 {
		return cli.Exit(fmt.Sprintf("%s is not ready: %s failed", path, strings.Join(k.failed, ", ")), 1)
	}
	fmt.Fprintln(k.w, "all checks passed")
	return nil
}

// botCheckTarget reads what to check: the program's absolute path, the games, and
// the ladder's sandbox at the level asked for (the candidate sees no ladder).
func botCheckTarget(c *cli.Context) (string, []string, sandbox.Config, error) {
	if c.NArg() != 1 {
		return "", nil, sandbox.Config{}, fmt.Errorf("check takes one bot program, got %d arguments", c.NArg())
	}
	path, err := filepath.Abs(c.Args().First())
	if err != nil {
		return "", nil, sandbox.Config{}, err
	}
	games := c.StringSlice("game")
	if len(games) == 0 {
		games = engine.Names()
	}
	for _, g := range games {
		if _, err := engine.Lookup(g); err != nil {
			return "", nil, sandbox.Config{}, err
		}
	}
	sb, _, err := sandboxConfig(c)
	if err != nil {
		return "", nil, sandbox.Config{}, err
	}
	if db, err := store.DefaultPath(); err == nil {
		sb = ladder.Sandbox(sb, filepath.Dir(db))
	}
	return path, games, sb, nil
}

// start launches the bot and checks its handshake and health service; nil when it
// does not start.
func (k *checker) start(c *cli.Context, path string, sb sandbox.Config) *protocol.Process {
	launch := protocol.LaunchConfig{Path: path, StartTimeout: c.Duration("startup"), Sandbox: sb}
	start := time.Now()
	proc, err := protocol.Launch(c.Context, launch)
	if err != nil {
		k.fail("handshake", "%v", err)
		return nil
	}
	k.pass("handshake", "started in %s", time.Since(start).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(c.Context, 2*time.Second)
	_, conn := proc.Client()
	h, err := grpc_health_v1.NewHealthClient(conn).Check(ctx, &grpc_health_v1.HealthCheckRequest{Service: "plugin"})
	cancel()
	switch {
	case err != nil:
		k.fail("health", "the health service failed: %v", err)
	case h.Status != grpc_health_v1.HealthCheckResponse_SERVING:
		k.fail("health", "service \"plugin\" is %s, not SERVING", h.Status)
	default:
		k.pass("health", "service \"plugin\" is SERVING")
	}
	return proc
}

// play checks a whole match of game g, in every seat of one deal, against the
// built-in random bot, and the bot's timing in it.
func (k *checker) play(c *cli.Context, g, path string, sb sandbox.Config) error {
	random, err := builtinLaunch("random")
	if err != nil {
		return err
	}
	clock := arena.Clock{Decision: c.Duration("decision"), Bank: arena.DefaultClock().Bank, Startup: c.Duration("startup"),
		Shutdown: c.Duration("shutdown"), Grace: arena.DefaultClock().Grace}
	spec, _ := engine.Lookup(g)
	entrants := []arena.Entrant{{Name: "bot", Launch: protocol.LaunchConfig{Path: path}}}
	for len(entrants) < spec.MinPlayers {
		entrants = append(entrants, arena.Entrant{Name: fmt.Sprintf("random#%d", len(entrants)),
			Launch: random})
	}
	stderrDir, err := os.MkdirTemp("", "arena-check-")
	if err != nil {
		return err
	}
	rep, err := arena.Run(c.Context, arena.Config{Game: g, Entrants: entrants, Launcher: protocol.Launcher{}, Games: len(entrants), Seed: 1,
		Clock: clock, Sandbox: sb, MaxForfeitShare: -1, MaxRestarts: -1, StderrDir: stderrDir, KeepMatches: true})
	stderrTail := readStderrTail(stderrDir, 60)
	_ = os.RemoveAll(stderrDir)
	if err != nil {
		k.fail("play "+g, "%v", err)
		k.quote("its stderr ends", stderrTail)
		return nil
	}
	b := rep.Bots[0]
	if b.Endings["ok"] != b.Games {
		var why []string
		for _, m := range rep.Matches {
			for _, s := range m.Seats {
				if s.Entrant == 0 && s.Ending != arena.OK {
					why = append(why, fmt.Sprintf("%s %s: %s", m.ID, s.Ending, s.Detail))
				}
			}
		}
		k.fail("play "+g, "%d of %d matches ended badly: %s", b.Games-b.Endings["ok"], b.Games, strings.Join(why, "; "))
		k.quote("its stderr ends", stderrTail)
		return nil
	}
	k.pass("play "+g, "%d matches in every seat, %d decisions", b.Games, b.Decisions)
	deadline := float64(clock.Decision) / float64(time.Millisecond)
	switch {
	case b.P99LatencyMs > deadline/2:
		k.warn("timing "+g, "p99 %.1f ms is over half the %s deadline: a loaded machine may time it out", b.P99LatencyMs, clock.Decision)
	default:
		k.pass("timing "+g, "mean %.2f ms, p99 %.2f ms (deadline %s)", b.MeanLatencyMs, b.P99LatencyMs, clock.Decision)
	}
	return nil
}
