package arena

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Entrant is one bot of a run: a name for reports and how to start its process.
type Entrant struct {
	Name   string
	Launch bot.LaunchConfig
	// Keep names the program for Config.Pool; the zero value keeps no process.
	Keep Keep
}

// Clock holds the time limits of a run.
type Clock struct {
	// Decision is the most one decision may take.
	Decision time.Duration
	// Bank is the most a seat may spend on all its decisions of one match.
	Bank time.Duration
	// Startup bounds starting a bot process (the handshake) and telling it a match
	// starts.
	Startup time.Duration
	// Shutdown bounds a bot's polite exit before its process group is killed.
	Shutdown time.Duration
	// Grace is added to every deadline for the transport's own delay, so that a bot
	// answering just in time is not failed by the wire.
	Grace time.Duration
	// Match caps one match's wall-clock time on top of the decision clocks (default:
	// every seat's bank and startup, plus a minute); a seat asked to decide after the
	// cap times out.
	Match time.Duration
}

// DefaultClock is the clock of `arena match` without flags.
func DefaultClock() Clock {
	return Clock{Decision: time.Second, Bank: time.Minute, Startup: 10 * time.Second, Shutdown: 2 * time.Second, Grace: 50 * time.Millisecond}
}

// Config is one run.
type Config struct {
	Game string
	// Options are the game's options (a board, a deck: see engine.Options); every match
	// is played with them, they reach every bot at the start of a match, and every
	// replay's header records them.
	Options engine.Options
	// Entrants are the bots, one per seat.
	Entrants []Entrant
	// Launcher starts the bots' processes (protocol.Launcher: go-plugin bots); it
	// must be set.
	Launcher bot.Launcher
	// Pool, when set, keeps the processes of entrants with a Keep between runs (see
	// Pool): the run takes them from it and hands them back. Their sandbox is that of
	// the run that started them, so Sandbox.Hide must hide ReplayDir already (a
	// directory above it): every run's replays stay out of a kept process's sight.
	Pool *Pool
	// Tag, when set, names the run in the match ids its bots are told (TAG/d0000-r0,
	// not d0000-r0): a pool shares a process between runs at once only when each
	// has a tag of its own, since a bot tells its matches apart by their ids.
	Tag string
	// Games is rounded up to a whole number of deals, each played in every rotation;
	// 0 plays until Stop decides (or ctx ends).
	Games int
	// Seed is the run's: the deals and the bots' seeds derive from it (see NewSeed);
	// 0 draws a fresh random one, which the report gives.
	Seed uint64
	// Parallel is the number of matches played at once (default 1).
	Parallel int
	Clock    Clock
	// MaxRestarts is how many times one bot's process may be restarted after crashing
	// before the run stops (default 3; negative: never restart).
	MaxRestarts int
	// ReplayDir receives one replay file per match; empty writes none.
	ReplayDir string
	// LiveReplays writes every record of a replay through to its temporary file as
	// it is made, rather than in buffered blocks, so that a reader tailing the file
	// (the served ladder's live games) sees each decision once it is taken.
	LiveReplays bool
	// ReplaysInMemory keeps each match's replay in memory (MatchResult.ReplayData,
	// for Commit to store) instead of writing it to a file in ReplayDir, which then
	// only names it (MatchResult.Replay) and keeps the bots' stderr: for a store that
	// keeps replays itself. A file per game cost a worker about 0.6 ms of CPU a game
	// (creating, writing through, reading back and removing it).
	ReplaysInMemory bool
	// StderrDir receives each bot's stderr when ReplayDir is empty (with replays, the
	// stderr files go beside them); empty keeps none.
	StderrDir string
	// StderrPerSeat keeps each entrant's stderr per seat, in stderr-E-NAME-seat-S.log,
	// instead of in one stderr-E-NAME.log: a run of one deal (a ladder's block) plays
	// each entrant once in each seat, with a process of its own, so a seat's file is
	// what the bot wrote in one game (a process a Pool shares with other runs marks
	// the parts written while it was shared: see Pool).
	StderrPerSeat bool
	Logger        hclog.Logger
	// Sandbox confines every bot process (see package sandbox); the zero value is the
	// strongest level the machine supports, without the helper command unless
	// Sandbox.Helper is set. Sandbox.Limits.CPUTime defaults to the run's banks.
	Sandbox sandbox.Config
	// MaxForfeitShare disqualifies a bot that times out or crashes in more than this
	// share of its matches (default DefaultMaxForfeitShare; negative: never), once it
	// has at least three such forfeits.
	MaxForfeitShare float64
	// OnMatch, when set, hears of every finished match (from one goroutine at a time).
	OnMatch func(m *MatchResult, done, total int)
	// Observer, when set, hears of bot processes, matches and decisions as they happen.
	Observer Observer
	// Rotations, when set, plays only these rotations of every deal (a ladder block
	// resumed after a kill plays the rotations it has not recorded). A deal then counts
	// as completed for Stop when all of these are played.
	Rotations []int
	// Commit, when set, hears of every finished match before OnMatch and before its
	// replay is moved from its temporary name to its own (a ladder records the game
	// here). An error stops the run, and that match's replay stays under its
	// temporary name, which no reader takes for a replay.
	Commit func(m *MatchResult) error
	// Stop, when set, is asked after every completed deal (all its rotations played),
	// with that deal, in the order deals complete; returning true ends the run early (a
	// sequential test that has decided, say). Matches in flight are abandoned, and the
	// report covers the completed deals only.
	Stop func(deal DealBlock) bool
	// KeepMatches makes the report list every match and every deal. Without it the
	// runner's memory stays flat however long the run: the report has sums per bot.
	KeepMatches bool

	// start starts a game with Options, prepared once by check (a board is read once
	// per run, not once per match).
	start engine.Starter
}

// ErrConfig wraps every error about the configuration itself.
var ErrConfig = errors.New("bad configuration")

func (c *Config) check() (engine.Spec, error) {
	spec, err := engine.Lookup(c.Game)
	if err != nil {
		return spec, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if c.start, err = engine.PrepareGame(c.Game, c.Options); err != nil {
		return spec, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if c.Launcher == nil {
		return spec, fmt.Errorf("%w: no launcher for the bots (Config.Launcher)", ErrConfig)
	}
	if err := c.Launcher.CheckGame(c.Game); err != nil {
		return spec, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if err := spec.CheckPlayers(len(c.Entrants)); err != nil {
		return spec, fmt.Errorf("%w: %v (one bot per seat)", ErrConfig, err)
	}
	if c.Games < 0 || c.Games == 0 && c.Stop == nil {
		return spec, fmt.Errorf("%w: %d games (0, unbounded, needs a Stop)", ErrConfig, c.Games)
	}
	if c.Parallel < 1 {
		c.Parallel = 1
	}
	for _, rot := range c.Rotations {
		if rot < 0 || rot >= len(c.Entrants) {
			return spec, fmt.Errorf("%w: rotation %d of a %d-player deal", ErrConfig, rot, len(c.Entrants))
		}
	}
	if c.Clock == (Clock{}) {
		c.Clock = DefaultClock()
	}
	if c.Clock.Decision <= 0 || c.Clock.Bank <= 0 || c.Clock.Startup <= 0 || c.Clock.Shutdown <= 0 || c.Clock.Grace < 0 || c.Clock.Match < 0 {
		return spec, fmt.Errorf("%w: every time limit must be positive: %+v", ErrConfig, c.Clock)
	}
	if c.Clock.Match == 0 {
		c.Clock.Match = defaultMatchWall(len(c.Entrants), c.Clock)
	}
	if c.MaxForfeitShare == 0 {
		c.MaxForfeitShare = DefaultMaxForfeitShare
	}
	if c.MaxForfeitShare > 1 {
		return spec, fmt.Errorf("%w: a forfeit share of %g is more than all matches", ErrConfig, c.MaxForfeitShare)
	}
	if c.MaxRestarts == 0 {
		c.MaxRestarts = 3
	}
	if c.MaxRestarts < 0 {
		c.MaxRestarts = 0
	}
	if c.Logger == nil {
		c.Logger = hclog.NewNullLogger()
	}
	if c.Pool != nil && c.ReplayDir != "" && !hidden(c.Sandbox.Hide, c.ReplayDir) {
		return spec, fmt.Errorf("%w: the bots' processes outlive the run (a pool), so the sandbox must hide the replays' directory %s already", ErrConfig, c.ReplayDir)
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	return spec, nil
}

// hidden reports whether dir is one of hide or under one of them.
func hidden(hide []string, dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, h := range hide {
		h, err := filepath.Abs(h)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(h, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}
