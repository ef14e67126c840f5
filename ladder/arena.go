package ladder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/fileid"
	"github.com/arena-games/arena/internal/tracing"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Launcher says how to start a bot's process: for a built-in bot, the arena binary
// serving it; for a submitted one, its executable in the store.
type Launcher func(b store.Bot) (protocol.LaunchConfig, error)

// StoreLauncher launches submitted bots from dir and built-in ones with builtin. Before
// every block it checks the executable's SHA-256 against the one recorded when the
// bot was added, so a binary changed in the store never plays under the old name. (The
// match runner's launch has no hook for go-plugin's SecureConfig, which would check
// the file go-plugin itself opens; this check runs just before, on the same path.) A
// file is hashed again only when its identity changed (device, inode, size,
// modification and change time: any write or replacement changes the change time,
// which cannot be set back): hashing a 20 MB program took longer than the block's
// games.
func StoreLauncher(dir string, builtin func(name string) (protocol.LaunchConfig, error)) Launcher {
	var checked sync.Map // path → the identity of the file last found to have its digest
	return func(b store.Bot) (protocol.LaunchConfig, error) {
		if b.Builtin != "" {
			return builtin(b.Builtin)
		}
		path := filepath.Join(dir, b.Path)
		id, idErr := fileid.Of(path)
		if last, ok := checked.Load(path); ok && idErr == nil && last == id+" "+b.SHA256 {
			return protocol.LaunchConfig{Path: path}, nil
		}
		sum, err := fileSHA256(path)
		if err != nil {
			return protocol.LaunchConfig{}, fmt.Errorf("bot %s: %w", label(b), err)
		}
		if idErr == nil && sum == b.SHA256 {
			checked.Store(path, id+" "+b.SHA256)
		}
		if sum != b.SHA256 {
			return protocol.LaunchConfig{}, fmt.Errorf("bot %s: %s has SHA-256 %.12s, not the %.12s it was added with: put the original back with `arena bot add ORIGINAL --name %s` (the store's copy is replaced), or `arena bot retire %s`",
				label(b), path, sum, b.SHA256, b.Name, b.Name)
		}
		return protocol.LaunchConfig{Path: path}, nil
	}
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ArenaPlayer plays blocks through the match runner, one arena run per block: the
// block's deal in every rotation not yet recorded, one game at a time.
type ArenaPlayer struct {
	Launch Launcher
	// Clock, MaxRestarts and Sandbox are those of arena.Config. A block is a run of
	// its own, so the runner's disqualification is off: the ladder counts a bot's
	// timeouts and crashes across blocks and suspends it (RunConfig.MaxForfeitShare).
	Clock       arena.Clock
	MaxRestarts int
	// Sandbox is Sandbox(base, dataDir), so that no bot sees the store.
	Sandbox sandbox.Config
	// ReplayDir receives the replays, one directory per game and block; empty
	// writes none.
	ReplayDir string
	Logger    hclog.Logger
	// Observer, when set, hears of the runner's bots, matches and decisions (metrics).
	Observer arena.Observer
	// StoreReplays hands each game's replay to the store with the game
	// (store.Match.ReplayData) and removes the local file once it is recorded: for a
	// PostgreSQL store, so that any machine can show them, and for `ladder run`'s
	// SQLite, with ReplaysInMemory, to save a file per game.
	StoreReplays bool
	// ReplaysInMemory, with StoreReplays, hands each replay to the store from memory
	// (arena.Config.ReplaysInMemory) without a file: no live view of the game from
	// ReplayDir, which then keeps only the bots' stderr.
	ReplaysInMemory bool
	// Unwatched says that no server shows this player's games in progress: `ladder
	// run`, whose run lock keeps `ladder serve` off its ladder. Its replays are then
	// written in one piece at the game's end rather than record by record through to
	// the file (one write a game instead of one a decision).
	Unwatched bool
	// Options are the game's options; a block's game must be their engine.Variant.
	Options engine.Options
	// Pool, when set, keeps the bots' processes from one block to the next (one per
	// bot version and seat, see arena.Pool; with PoolConfig.Share, one serves that
	// many blocks at once); Close stops them. Nil starts and stops every bot with its
	// block.
	Pool *arena.Pool
}

// Close stops the bot processes the player kept between blocks: politely within the
// clock's Shutdown each, or at once when ctx has ended (an interrupt).
func (p *ArenaPlayer) Close(ctx context.Context) {
	if p.Pool == nil {
		return
	}
	if ctx.Err() != nil {
		p.Pool.Close(ctx, 0)
		return
	}
	grace := p.Clock.Shutdown
	if grace <= 0 {
		grace = arena.DefaultClock().Shutdown
	}
	p.Pool.Close(ctx, grace)
}

// Layers are the sandbox layers the player's bots get, found once with a Pool (whose
// first block then finds them too: each finding makes and removes a trial box).
func (p *ArenaPlayer) Layers() ([]sandbox.Status, error) {
	return p.Pool.SandboxLayers(p.Sandbox)
}

// Sandbox is the sandbox of every bot the ladder runs, and of a candidate's smoke
// test: base, with the ladder's data directory (the database, the stored bots, the
// replays) hidden from the bot. A bot program in the store is opened before it is
// hidden.
func Sandbox(base sandbox.Config, dataDir string) sandbox.Config {
	base.Hide = append(append([]string(nil), base.Hide...), dataDir)
	return base
}

// PlayBlock runs the rotations of block b not yet recorded through arena.Run and
// records each game as it ends, before its replay takes its name. A game's start time
// is taken as the end of the block's previous game (the block's start for the first),
// since the games of a block are played one after another.
func (p *ArenaPlayer) PlayBlock(ctx context.Context, b store.Block, bots []store.Bot, record func(store.Match) error) error {
	if tracing.Enabled() {
		return p.tracedBlock(ctx, b, bots, record)
	}
	return p.playBlock(ctx, b, bots, record)
}

// tracedBlock plays b as a trace of its own (package tracing): its schedule, its bots'
// starts, its games and their recording.
func (p *ArenaPlayer) tracedBlock(ctx context.Context, b store.Block, bots []store.Bot, record func(store.Match) error) error {
	names := make([]string, len(bots))
	for i, bot := range bots {
		names[i] = label(bot)
	}
	ctx, span := tracing.Block(ctx, b.ID, b.Game, b.Created, names)
	traced := *p
	traced.Observer = span.Observer(p.Observer)
	err := traced.playBlock(ctx, b, bots, tracing.Record(span, record))
	span.End(err)
	return err
}

func (p *ArenaPlayer) playBlock(ctx context.Context, b store.Block, bots []store.Bot, record func(store.Match) error) error {
	game := engine.VariantGame(b.Game)
	if v := engine.Variant(game, p.Options); v != b.Game {
		return fmt.Errorf("block %d is of %s, but this player plays %s", b.ID, b.Game, v)
	}
	entrants := make([]arena.Entrant, len(bots))
	for i, bot := range bots {
		lc, err := p.Launch(bot)
		if err != nil {
			return err
		}
		entrants[i] = arena.Entrant{Name: label(bot), Launch: lc, Keep: arena.Keep{Bot: bot.Name, Version: bot.ID}}
	}
	replays := ""
	if p.ReplayDir != "" {
		replays = blockReplayDir(p.ReplayDir, b)
	}
	started := time.Now()
	_, err := arena.Run(ctx, arena.Config{
		// The tag tells a block's matches from those of blocks beside it in a shared
		// process (arena.PoolConfig.Share).
		Tag:  fmt.Sprintf("block-%d", b.ID),
		Game: game, Options: p.Options, Entrants: entrants, Launcher: protocol.Launcher{}, Pool: p.Pool, Games: b.Rotations, Seed: b.Seed, Parallel: 1, Rotations: missing(b),
		Clock: p.Clock, MaxRestarts: p.MaxRestarts, Sandbox: p.Sandbox, MaxForfeitShare: -1,
		// A block is one deal: each seat's stderr is one game's (the service serves it so).
		ReplayDir: replays, LiveReplays: !p.Unwatched, ReplaysInMemory: p.StoreReplays && p.ReplaysInMemory, StderrPerSeat: true, Logger: p.Logger, Observer: p.Observer,
		Commit: func(m *arena.MatchResult) error {
			now := time.Now()
			g := store.Match{Block: b.ID, Rotation: m.Rotation, Game: b.Game, Seed: m.Seed, Adjudicated: m.Adjudicated,
				Replay: m.Replay, Started: started, Finished: now}
			started = now
			for _, s := range m.Seats {
				g.Seats = append(g.Seats, store.Seat{Bot: bots[s.Entrant].ID, Place: s.Place, Score: s.Score, Ending: s.Ending.String()})
			}
			if g.ReplayData = m.ReplayData; p.StoreReplays && m.Replay != "" && g.ReplayData == nil {
				data, err := os.ReadFile(m.ReplayFile())
				if err != nil {
					return fmt.Errorf("replay of block %d rotation %d: %w", b.ID, m.Rotation, err)
				}
				g.ReplayData = data
			}
			return record(g)
		},
		OnMatch: func(m *arena.MatchResult, _, _ int) {
			// Recorded with its game, and committed: the local copy is not needed.
			if p.StoreReplays && m.Replay != "" && m.ReplayData == nil {
				_ = os.Remove(m.Replay)
			}
		},
	})
	return err
}

// missing lists the rotations of b not yet recorded.
func missing(b store.Block) []int {
	var out []int
	for rot := range b.Rotations {
		if !slices.Contains(b.Done, rot) {
			out = append(out, rot)
		}
	}
	return out
}

func blockReplayDir(root string, b store.Block) string {
	return filepath.Join(root, b.Game, fmt.Sprintf("block-%d", b.ID))
}

// Tidy settles the replays of game that a killed run left under their temporary
// names: a game recorded before the kill gets its replay moved into place, and the
// rest (games in flight, never recorded) are removed. It also removes a replay under
// its final name whose game an open block has no record of: what an OS crash leaves
// when the database (synced only at checkpoints, store.SQLite) lost the game's last
// commits but the file system kept its replay; the block plays that rotation again.
// It reads every block directory of the game, so it runs once, before a run starts.
func (p *ArenaPlayer) Tidy(ctx context.Context, st store.Store, game string) error {
	if p.ReplayDir == "" {
		return nil
	}
	root := filepath.Join(p.ReplayDir, game)
	blocks, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	openBlocks, err := st.OpenBlocks(ctx, game)
	if err != nil {
		return err
	}
	open := map[int64]bool{}
	for _, b := range openBlocks {
		open[b.ID] = true
	}
	for _, d := range blocks {
		var id int64
		if _, err := fmt.Sscanf(d.Name(), "block-%d", &id); err != nil || !d.IsDir() {
			continue
		}
		if err := tidyBlock(ctx, st, filepath.Join(root, d.Name()), id, open[id]); err != nil {
			return err
		}
	}
	return nil
}

// tidyBlock settles one block's replays; open says the block misses games, whose
// replays under their final names are then checked against its records too.
func tidyBlock(ctx context.Context, st store.Store, dir string, block int64, open bool) error {
	temps, err := filepath.Glob(filepath.Join(dir, "*.jsonl"+arena.TempReplaySuffix))
	if err != nil {
		return err
	}
	var finals []string
	if open {
		if finals, err = filepath.Glob(filepath.Join(dir, "*.jsonl")); err != nil {
			return err
		}
	}
	if len(temps) == 0 && len(finals) == 0 {
		return nil
	}
	recorded, err := st.Recorded(ctx, block)
	if err != nil {
		return err
	}
	// Compared by name within the block's directory: the ladder may have moved.
	names := make([]string, len(recorded))
	for i, p := range recorded {
		names[i] = filepath.Base(p)
	}
	for _, final := range finals {
		if !slices.Contains(names, filepath.Base(final)) {
			if err := os.Remove(final); err != nil {
				return err
			}
		}
	}
	for _, tmp := range temps {
		final := strings.TrimSuffix(tmp, arena.TempReplaySuffix)
		if _, err := os.Lstat(final); err != nil && slices.Contains(names, filepath.Base(final)) {
			if err := os.Link(tmp, final); err != nil {
				return fmt.Errorf("replay of a recorded game: %w", err)
			}
		}
		if err := os.Remove(tmp); err != nil {
			return err
		}
	}
	return nil
}

// AddOptions is what AddBot needs besides the store.
type AddOptions struct {
	// Name is the ladder name; a name already on the ladder gets a new version.
	Name string
	// Builtin, when set, adds the arena's built-in bot of that name instead of a file.
	Builtin string
	// Path is the bot program to copy into the store.
	Path string
	// Smoke tests the bot before it is added; nil skips the test.
	Smoke func(ctx context.Context, lc protocol.LaunchConfig) error
	// BuiltinLaunch starts a built-in bot (for its smoke test).
	BuiltinLaunch func(name string) (protocol.LaunchConfig, error)
}

// AddBot copies a bot program into the store's bots directory under its SHA-256,
// smoke-tests it there, and adds it as the next version of its name (retiring older
// versions). On any failure nothing is added and a file it copied is removed.
func AddBot(ctx context.Context, st store.Store, opt AddOptions) (store.Bot, error) {
	if opt.Name == "" {
		return store.Bot{}, fmt.Errorf("a bot needs a name (--name)")
	}
	if opt.Builtin != "" {
		b := store.Bot{Name: opt.Name, Builtin: opt.Builtin, SHA256: builtinDigest(opt.Builtin)}
		if opt.Smoke != nil {
			lc, err := opt.BuiltinLaunch(opt.Builtin)
			if err != nil {
				return store.Bot{}, err
			}
			if err := opt.Smoke(ctx, lc); err != nil {
				return store.Bot{}, fmt.Errorf("built-in bot %s failed its smoke test: %w; nothing was added", opt.Builtin, err)
			}
		}
		return st.AddBot(ctx, b)
	}
	rel, created, err := copyIn(st.Dir(), opt.Path)
	if err != nil {
		return store.Bot{}, err
	}
	undo := func() {
		if created {
			os.Remove(filepath.Join(st.Dir(), rel))
		}
	}
	sum := filepath.Base(rel)
	if opt.Smoke != nil {
		if err := opt.Smoke(ctx, protocol.LaunchConfig{Path: filepath.Join(st.Dir(), rel)}); err != nil {
			undo()
			return store.Bot{}, fmt.Errorf("bot %s failed its smoke test: %w; nothing was added", opt.Path, err)
		}
	}
	if err := putProgram(ctx, st, rel); err != nil {
		undo()
		return store.Bot{}, err
	}
	b, err := st.AddBot(ctx, store.Bot{Name: opt.Name, SHA256: sum, Path: rel})
	if errors.Is(err, store.ErrDuplicate) && created {
		if active, ok := activeWithDigest(ctx, st, opt.Name, sum); ok {
			return active, nil // the store's changed copy of this very bot was put back
		}
	}
	if err != nil {
		undo()
		return store.Bot{}, err
	}
	return b, nil
}

// activeWithDigest finds the active version of name when it is the program sum.
func activeWithDigest(ctx context.Context, st store.Store, name, sum string) (store.Bot, bool) {
	bots, err := st.Bots(ctx, false)
	if err != nil {
		return store.Bot{}, false
	}
	for _, b := range bots {
		if b.Name == name && b.SHA256 == sum {
			return b, true
		}
	}
	return store.Bot{}, false
}

// builtinDigest stands for a built-in bot's digest: it has no file of its own.
func builtinDigest(name string) string {
	s := sha256.Sum256([]byte("builtin:" + name))
	return hex.EncodeToString(s[:])
}

// copyIn copies the executable at src to dir/bots/SHA256 through a temporary file, so
// that a half-written copy never carries a digest's name. It returns the path relative
// to dir and whether it created the file (an identical file may already be there).
func copyIn(dir, src string) (rel string, created bool, err error) {
	in, err := os.Open(src)
	if err != nil {
		return "", false, fmt.Errorf("bot program: %w", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return "", false, err
	}
	if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return "", false, fmt.Errorf("bot program %s is not an executable file", src)
	}
	botDir := filepath.Join(dir, "bots")
	if err := store.PrivateDir(botDir); err != nil {
		return "", false, err
	}
	tmp, err := os.CreateTemp(botDir, ".incoming-*")
	if err != nil {
		return "", false, err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), in); err != nil {
		tmp.Close()
		return "", false, fmt.Errorf("copying %s: %w", src, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", false, err
	}
	if err := tmp.Close(); err != nil {
		return "", false, err
	}
	if err := os.Chmod(tmp.Name(), 0o555); err != nil {
		return "", false, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	rel = filepath.Join("bots", sum)
	dst := filepath.Join(dir, rel)
	if have, err := fileSHA256(dst); err == nil && have == sum {
		return rel, false, nil
	}
	// Missing, or changed since it was copied in: the program's true content takes
	// its name (again).
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", false, err
	}
	return rel, true, nil
}
