// Package bot is the arena's Go interface to a bot process, with no transport in it:
// launch a process, start a match in one of its seats, ask that seat's decisions, tell
// it how the match ended, read its stderr and stop it. Package protocol implements it
// over go-plugin's gRPC (protocol.Launcher); package arena plays matches through it
// alone, so the match runner imports neither gRPC nor the generated messages, and
// every byte a bot receives is built in package protocol (whose wire tests check it).
package bot

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/sandbox"
)

// LaunchConfig says how to start one bot process.
type LaunchConfig struct {
	// Path is the bot's executable; Args follow it.
	Path string
	Args []string
	// Env is added to the bot's minimal environment (PATH and go-plugin's variables);
	// nothing else of the host's environment reaches the bot.
	Env []string
	// StartTimeout bounds the handshake (default 10 s).
	StartTimeout time.Duration
	// StderrBytes caps how much of the bot's stderr is kept, the last bytes (default
	// 64 KiB).
	StderrBytes int
	// Logger receives the transport's own messages (default: none).
	Logger hclog.Logger
	// Sandbox confines the process (the zero value: the strongest level this machine
	// supports without a helper; see package sandbox).
	Sandbox sandbox.Config
}

// Launcher starts bot processes.
type Launcher interface {
	// Launch starts a process and completes its handshake. A process that does not
	// start is a *StartError (the bot's fault); other errors are the host's. On error
	// nothing is left running.
	Launch(ctx context.Context, cfg LaunchConfig) (Process, error)
	// CheckGame says whether the launcher's bots can be told of game (the wire has
	// messages for its views).
	CheckGame(game string) error
}

// Process is a running bot process. It plays one match at a time per seat it was
// started for.
type Process interface {
	// StartMatch tells the bot a match starts (waiting at most timeout) and opens the
	// seat's line for its decisions.
	StartMatch(ctx context.Context, m Start, timeout time.Duration) (Seat, error)
	// EndMatch tells the bot how a match ended without a seat's line (a seat that
	// forfeited and may be stuck): at most EndMatchTimeout.
	EndMatch(e End) error
	// Pid is the process's id (also its process group's).
	Pid() int
	// Exited reports whether the process has ended; Done is closed when it has.
	Exited() bool
	Done() <-chan struct{}
	// Stopped is why the host stopped the process (a limit it watches), nil if it
	// did not.
	Stopped() error
	// Stderr is the last bytes the bot wrote to stderr. StderrSince is what it wrote
	// after mark (as far as the kept bytes reach) and the mark for what follows: 0 is
	// the process's start.
	Stderr() string
	StderrSince(mark int64) (string, int64)
	// Stop ends the process: a polite exit for at most grace (cut short when ctx
	// ends), then its whole process group is killed. It reports a clean exit.
	Stop(ctx context.Context, grace time.Duration) (clean bool)
	// Sandbox lists the process's sandbox layers: active, or missing and why.
	Sandbox() []sandbox.Status
}

// Start is what a bot is told when a match starts.
type Start struct {
	MatchID string
	Game    string
	Seat    int
	Players int
	// Seed is for the bot's own randomness in this match; it tells nothing of the deal.
	Seed uint64
	// Decision and Bank are the clock: the most one decision may take, and the most
	// the seat may spend on all of them.
	Decision, Bank time.Duration
	// Options are the game's options, each in full, by name.
	Options map[string]string
}

// End is how a match ended, as one seat's bot is told.
type End struct {
	MatchID string
	Seat    int
	// Place and Score are every seat's (places after forfeits, 0 first).
	Place, Score []int
	Adjudicated  bool
	// Endings are every seat's, numbered as the protocol's Ending (ok, timeout, crash,
	// illegal, protocol).
	Endings []int
}

// Ask is one decision's clock, as the bot is told it, and how long the arena waits.
type Ask struct {
	// Bank is what is left of the seat's bank; Deadline is the time this decision may
	// take. The bot is told both.
	Bank, Deadline time.Duration
	// Wait is how long the arena waits for the answer, from before the question is
	// sent (the deadline and the transport's grace).
	Wait time.Duration
}

// Seat is the line to one bot for one seat of one match. One decision is in flight at
// a time.
type Seat interface {
	// Decide asks the seat's decision in g, whose turn it must be: the bot receives
	// what the engine lets the seat see (its view, the events it saw since its last
	// decision, the options) and the clock. It returns the index the bot chose (not
	// checked against the options) and the time from sending to the answer. After an
	// error the seat is broken: later calls fail at once.
	Decide(g engine.Game, a Ask) (choice int, took time.Duration, err error)
	// Close ends the seat's line and, with end set, tells the bot how the match ended
	// (waiting at most timeout).
	Close(end *End, timeout time.Duration) error
}

// EndMatchTimeout is how long the arena waits for a bot to take a match's result.
// The bot has nothing to answer, so it is short, and the wait runs beside the next
// match, never before it.
const EndMatchTimeout = 500 * time.Millisecond

// ErrDeadline is returned by Seat.Decide when the bot did not answer in time.
var ErrDeadline = errors.New("no answer before the deadline")

// ErrMalformed wraps an answer that does not belong to the question (another match or
// decision).
var ErrMalformed = errors.New("malformed reply")

// CallError is a call the bot failed: it broke the line, or answered with an error.
type CallError struct {
	// Broken says the line itself broke (the process may have died).
	Broken bool
	// Detail says what the bot sent, printable.
	Detail string
}

func (e *CallError) Error() string { return e.Detail }
