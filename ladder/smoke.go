package ladder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// SmokeStderrBytes is how much of a failed candidate's stderr its SmokeError keeps:
// the last bytes, enough for a panic's first frames or a few lines of a log.
const SmokeStderrBytes = 4 << 10

// SmokeError is a candidate that failed its smoke test. Game, Ending and Stderr are
// what its author may read (the game, how its seat ended, and the last
// SmokeStderrBytes of what the bot itself wrote to stderr); Detail is the arena's
// account, for the operator, which may name paths on the server.
type SmokeError struct {
	Game string
	// Ending is an arena ending's name (timeout, crash, illegal, protocol), or
	// "no start" for a program that never started as a bot.
	Ending string
	Detail string
	Stderr string
	// Start, for a program that never started as a bot, says how its start failed
	// (its Kind is the author's business; its Bot and Err name server paths).
	Start *protocol.StartError
	// Startup is how long the program had for its handshake.
	Startup time.Duration
}

func (e *SmokeError) Error() string {
	return fmt.Sprintf("in a game of %s it ended with %s: %s", e.Game, e.Ending, e.Detail)
}

// Smoke plays the bot launched by lc through one deal of game against opponents (as
// many as the game needs), in the sandbox sb (the ladder's: see Sandbox), and fails
// with a *SmokeError unless every seat it held ended normally: it started, answered
// in time and chose legal options.
func Smoke(ctx context.Context, game string, lc protocol.LaunchConfig, opponent protocol.LaunchConfig, sb sandbox.Config) error {
	spec, err := engine.Lookup(game)
	if err != nil {
		return err
	}
	entrants := []arena.Entrant{{Name: smokeCandidate, Launch: lc}}
	for i := 1; i < max(spec.MinPlayers, 2); i++ {
		entrants = append(entrants, arena.Entrant{Name: fmt.Sprintf("opponent%d", i), Launch: opponent})
	}
	// The bots' stderr goes to a folder of the test's own, where the candidate's is
	// found by its entrant's name.
	dir, err := os.MkdirTemp("", "arena-smoke-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	rep, err := arena.Run(ctx, arena.Config{Game: game, Entrants: entrants, Launcher: protocol.Launcher{}, Games: len(entrants), Seed: 1, MaxRestarts: -1,
		Sandbox: sb, KeepMatches: true, StderrDir: dir})
	// The runner has saved what the candidate's processes wrote (a process that never
	// started has no file; its start error kept its last line).
	stderr, _ := os.ReadFile(filepath.Join(dir, "stderr-0-"+smokeCandidate+".log"))
	fail := func(ending, detail string) error {
		return &SmokeError{Game: game, Ending: ending, Detail: detail, Stderr: string(stderr[max(0, len(stderr)-SmokeStderrBytes):]),
			Startup: arena.DefaultClock.Startup}
	}
	// With no restarts allowed, a candidate that crashed or never started ends the
	// run at its next game.
	var rl *arena.ErrRestartLimit
	switch {
	case errors.As(err, &rl) && rl.Bot == smokeCandidate && rl.Start != nil:
		if len(stderr) == 0 {
			stderr = []byte(rl.Start.Stderr)
		}
		e := fail("no start", rl.Error()).(*SmokeError)
		e.Start = rl.Start
		return e
	case errors.As(err, &rl) && rl.Bot == smokeCandidate:
		return fail(arena.Crash.String(), rl.Error())
	case err != nil:
		return err
	}
	for _, m := range rep.Matches {
		for _, s := range m.Seats {
			if s.Entrant == 0 && s.Ending != arena.OK {
				return fail(s.Ending.String(), s.Detail)
			}
		}
	}
	return nil
}

// smokeCandidate is the smoke-tested bot's entrant name.
const smokeCandidate = "candidate"
