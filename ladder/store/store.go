// Package store keeps a ladder's bots and results: which bots (and which versions of
// them) play, which blocks of games were started, and every recorded game. It is an
// interface, Store, with two implementations: Open gives the SQLite file, the embedded
// default for one machine; OpenPostgres a PostgreSQL database that many machines feed
// (it also keeps the bot programs and the replays: Programs, Replays); OpenAny chooses
// by the --db argument.
//
// Results are the ladder's ground truth and are written once: a game is identified by
// its block (one deal played in every seat rotation) and its rotation, the pair is
// unique, and each game is written in one transaction, so a run killed at any moment
// keeps every game it had recorded and a resumed run can see what is left to play.
package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// Bot is one version of a bot on the ladder.
type Bot struct {
	ID      int64
	Name    string
	Version int
	// SHA256 is the hex digest of the bot's executable; for a built-in bot, of
	// "builtin:" and its name, so that adding it twice is recognised.
	SHA256 string
	// Path is the executable's path relative to the store's directory; empty for a
	// built-in bot.
	Path string
	// Builtin names the arena's built-in bot this entry plays, or is empty.
	Builtin string
	Added   time.Time
	// Retired is zero while the version plays.
	Retired time.Time
}

// Active reports whether the version still plays.
func (b Bot) Active() bool { return b.Retired.IsZero() }

// Suspension keeps a bot that timed out or crashed too often out of new tables
// until it is reinstated.
type Suspension struct {
	Bot    int64
	Reason string
	At     time.Time
	// Lifted is zero while the suspension holds.
	Lifted time.Time
	// CountAfter is the last game recorded when it was lifted: the bot's share of
	// timeouts and crashes counts only later games.
	CountAfter int64
}

// Holds reports whether the suspension is in force.
func (x Suspension) Holds() bool { return !x.At.IsZero() && x.Lifted.IsZero() }

// Block is one deal, to be played in every seat rotation by the same bots.
type Block struct {
	ID   int64
	Game string
	Seed uint64
	// Bots are the entrants in the seat order of rotation 0.
	Bots []int64
	// Rotations is how many games complete the block.
	Rotations int
	Created   time.Time
	// Done lists the rotations already recorded (filled by OpenBlocks).
	Done []int
}

// Seat is one seat's part of a recorded game.
type Seat struct {
	Bot int64
	// Place is 0 for first; tied seats share a place.
	Place int
	// Score is the game's own score (tokens, points) for reports.
	Score int
	// Ending is how the seat's play ended ("ok", "timeout", "crash"...).
	Ending string
}

// Match is one recorded game.
type Match struct {
	ID          int64
	Block       int64
	Rotation    int
	Game        string
	Seed        uint64
	Seats       []Seat
	Adjudicated bool
	// Replay is the replay file's path, or empty.
	Replay   string
	Started  time.Time
	Finished time.Time
	// ReplayData, when set, is the replay itself (its JSON lines), for a store that
	// keeps replays with their games (a Replays store over a server database stores it
	// compressed in the game's transaction). Matches leaves it empty.
	ReplayData []byte
	// Worker is the registered worker (WorkerRegistry) that played the game, or 0
	// for a game played by a local run. Only a store with workers keeps it: SQLite
	// records and returns 0.
	Worker int64
}

// ErrDuplicate is wrapped by RecordMatch's error for a (block, rotation) already
// recorded, and by AddBot's for a bot already on the ladder with the same digest.
var ErrDuplicate = errors.New("already recorded")

// ErrNotFound is wrapped by errors about a bot or block that does not exist.
var ErrNotFound = errors.New("not found")

// Store is a ladder's database. Every method is safe for concurrent use.
type Store interface {
	// Dir is the directory bot executables are kept in, Bot.Path is relative to it.
	Dir() string
	// AddBot adds b as the next version of b.Name (its ID, Version and Added are set
	// by the store) and retires the name's older versions, in one transaction.
	AddBot(ctx context.Context, b Bot) (Bot, error)
	// Bots lists every version, oldest first; retired ones only with all.
	Bots(ctx context.Context, all bool) ([]Bot, error)
	// RetireBot retires the active version of name.
	RetireBot(ctx context.Context, name string) (Bot, error)
	// Suspensions lists every suspension, lifted ones too.
	Suspensions(ctx context.Context) ([]Suspension, error)
	// SuspendBot suspends a bot version with the reason.
	SuspendBot(ctx context.Context, bot int64, reason string) error
	// ReinstateBot lifts the suspension of name's active version.
	ReinstateBot(ctx context.Context, name string) (Bot, error)
	// ReactivateBot brings back the latest version of name after it was retired.
	ReactivateBot(ctx context.Context, name string) (Bot, error)
	// NewBlock records a block about to be played and returns it with its ID.
	NewBlock(ctx context.Context, b Block) (Block, error)
	// OpenBlocks lists the blocks of game that still miss rotations, oldest first.
	OpenBlocks(ctx context.Context, game string) ([]Block, error)
	// RecordMatch writes one game in one transaction. A second game of the same
	// block and rotation is refused with an error wrapping ErrDuplicate.
	RecordMatch(ctx context.Context, m Match) (Match, error)
	// Recorded lists the replay paths of block's recorded games (empty for a game
	// recorded without a replay).
	Recorded(ctx context.Context, block int64) ([]string, error)
	// Matches calls fn for every recorded game of game ("" for all), in the order
	// they were recorded, until fn returns an error.
	Matches(ctx context.Context, game string, fn func(Match) error) error
	// MatchesAfter is Matches of the games with an ID above after only: what a
	// reader that has seen the games up to after reads to catch up.
	MatchesAfter(ctx context.Context, game string, after int64, fn func(Match) error) error
	// Match returns the recorded game with that ID, or an error wrapping ErrNotFound.
	Match(ctx context.Context, id int64) (Match, error)
	// Close releases the database.
	Close() error
}

// Programs is a store that keeps bot programs itself, content addressed, so that any
// machine can fetch and play any bot.
type Programs interface {
	// PutProgram stores content under its SHA-256, which must be sum; storing a
	// program already there is a no-op.
	PutProgram(ctx context.Context, sum string, content []byte) error
	// Program returns the program stored under sum, or an error wrapping
	// ErrNotFound.
	Program(ctx context.Context, sum string) ([]byte, error)
}

// Replays is a store that hands back a recorded game's replay from any machine.
type Replays interface {
	// Replay returns the replay (its JSON lines) of the game with that ID, or an
	// error wrapping ErrNotFound.
	Replay(ctx context.Context, match int64) ([]byte, error)
}

// DefaultPath is where a user's ladder lives unless told otherwise:
// $XDG_DATA_HOME/arena/ladder.db, else ~/.local/share/arena/ladder.db.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "arena", "ladder.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory to keep the ladder in; choose a file with --db")
	}
	return filepath.Join(home, ".local", "share", "arena", "ladder.db"), nil
}
