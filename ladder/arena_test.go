package ladder

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/testlock"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/plugins/builtin"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// serveEnv makes the test binary serve a built-in bot instead of running tests, so
// that the tests have real bot processes without building anything.
const serveEnv = "LADDER_TEST_SERVE_BOT"

func TestMain(m *testing.M) {
	testkit.CoverChild(len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg)
	sandbox.RunHelper(os.Args)
	if os.Getenv(serveEnv) == "" {
		// Bots run as users of their own, and the test bots are scripts that start
		// this binary by its path: let every user reach it, as an installed one is
		// (only go test's own build directory is opened).
		if dir := filepath.Dir(os.Args[0]); strings.HasPrefix(filepath.Base(filepath.Dir(dir)), "go-build") {
			_ = os.Chmod(dir, 0o755)
			_ = os.Chmod(filepath.Dir(dir), 0o755)
		}
	}
	if name := os.Getenv(serveEnv); name == "filler" {
		// A bot that fills its scratch directory as it starts, then plays.
		fmt.Fprintln(os.Stderr, "probe: fill", attack.FillDisk(".", 1<<30))
		os.Setenv(serveEnv, "random")
	}
	if name := os.Getenv(serveEnv); name == "peek" {
		// A candidate that refuses to play when it can find the ladder's database.
		if _, err := os.Stat(os.Getenv("ARENA_TEST_PEEK")); !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "the ladder's database is in sight:", err)
			os.Exit(1)
		}
		os.Setenv(serveEnv, "random")
	}
	if os.Getenv(serveEnv) == "blurt" {
		// A candidate that writes more to stderr than a failed smoke test tells its
		// author, and dies at its first decision.
		protocol.Serve(engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int {
			// To the process's stderr itself, as a crash's message goes: go-plugin's
			// forwarding of os.Stderr may lose the last words of a process that exits.
			fmt.Fprintf(os.NewFile(2, "stderr"), "first %s last\n", strings.Repeat("x", 3*SmokeStderrBytes))
			os.Exit(4)
			return 0
		}))
		os.Exit(0)
	}
	if os.Getenv(serveEnv) == "hoarder" {
		serveHoarder(os.NewFile(2, "stderr"))
		os.Exit(0)
	}
	if name := os.Getenv(serveEnv); name != "" {
		if err := builtin.Serve(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	release := testlock.Heavy() // ladders of real bot processes
	code := m.Run()
	release()
	os.Exit(code)
}

func testBuiltin(name string) (protocol.LaunchConfig, error) {
	if !builtin.Has(name) {
		return protocol.LaunchConfig{}, fmt.Errorf("no built-in bot %q", name)
	}
	return protocol.LaunchConfig{Path: os.Args[0], Env: append([]string{serveEnv + "=" + name}, testkit.ChildEnv()...)}, nil
}

// testSandbox is the ladder's sandbox in these tests: a submitted bot is a script that
// starts this binary by its path (script), which lies in go test's build folder under
// /tmp, a host folder the bots' mount view covers: the bots are given it to read and
// run, as an operator gives them a runtime installed outside /usr. (The file alone: a
// test run again as another user keeps its scratch root beside it.)
var testSandbox = sandbox.Config{Read: []string{os.Args[0]}}

// script writes an executable shell script, standing for a submitted bot program.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.sh")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return path
}

// pluginScript is a submitted bot: the test binary serving the random bot.
func pluginScript(t *testing.T) string {
	return script(t, fmt.Sprintf("%s=random exec %q \"$@\"", serveEnv, os.Args[0]))
}

func smokeWith(game string) func(ctx2 context.Context, lc protocol.LaunchConfig) error {
	return func(ctx2 context.Context, lc protocol.LaunchConfig) error {
		opp, _ := testBuiltin("random")
		return Smoke(ctx2, game, lc, opp, testSandbox)
	}
}

func TestAddBot(t *testing.T) {
	st := newLadder(t)
	opt := func(name, path string) AddOptions {
		return AddOptions{Name: name, Path: path, Smoke: smokeWith("ivanhoe"), BuiltinLaunch: testBuiltin}
	}
	t.Run("a working program is copied under its digest and added", func(t *testing.T) {
		b, err := AddBot(ctx, st, opt("plug", pluginScript(t)))
		require.NoError(t, err)
		assert.Equal(t, 1, b.Version)
		assert.Equal(t, filepath.Join("bots", b.SHA256), b.Path)
		sum, err := fileSHA256(filepath.Join(st.Dir(), b.Path))
		require.NoError(t, err)
		assert.Equal(t, b.SHA256, sum)
	})
	t.Run("a program that does not start fails its smoke test and leaves nothing", func(t *testing.T) {
		_, err := AddBot(ctx, st, opt("broken", script(t, "echo oops >&2; exit 3")))
		require.ErrorContains(t, err, "failed its smoke test")
		assert.ErrorContains(t, err, "nothing was added")
		bots, err := st.Bots(ctx, true)
		require.NoError(t, err)
		assert.Len(t, bots, 1)
		entries, err := os.ReadDir(filepath.Join(st.Dir(), "bots"))
		require.NoError(t, err)
		assert.Len(t, entries, 1, "only the working bot's file")
	})
	t.Run("a program that is not executable is refused", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "data")
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
		_, err := AddBot(ctx, st, opt("data", p))
		require.ErrorContains(t, err, "not an executable file")
	})
	t.Run("a built-in bot is added without a file; adding it again is refused", func(t *testing.T) {
		b, err := AddBot(ctx, st, AddOptions{Name: "random", Builtin: "random", Smoke: smokeWith("ivanhoe"), BuiltinLaunch: testBuiltin})
		require.NoError(t, err)
		assert.Empty(t, b.Path)
		_, err = AddBot(ctx, st, AddOptions{Name: "random", Builtin: "random", BuiltinLaunch: testBuiltin})
		require.ErrorIs(t, err, store.ErrDuplicate)
	})
	t.Run("a changed file in the store is refused at launch", func(t *testing.T) {
		bots, err := st.Bots(ctx, false)
		require.NoError(t, err)
		var plug store.Bot
		for _, b := range bots {
			if b.Name == "plug" {
				plug = b
			}
		}
		launch := StoreLauncher(st.Dir(), testBuiltin)
		_, err = launch(plug)
		require.NoError(t, err)
		path := filepath.Join(st.Dir(), plug.Path)
		require.NoError(t, os.Chmod(path, 0o755))
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755))
		_, err = launch(plug)
		require.ErrorContains(t, err, "not the")
	})
}

func TestArenaPlayerRecordsEveryGameWithItsReplay(t *testing.T) {
	st := newLadder(t)
	for _, name := range []string{"random", "heuristic"} {
		_, err := AddBot(ctx, st, AddOptions{Name: name, Builtin: name})
		require.NoError(t, err)
	}
	_, err := AddBot(ctx, st, AddOptions{Name: "plug", Path: pluginScript(t)})
	require.NoError(t, err)

	p := &ArenaPlayer{Launch: StoreLauncher(st.Dir(), testBuiltin), ReplayDir: filepath.Join(st.Dir(), "replays"), Clock: arena.DefaultClock,
		Sandbox: Sandbox(testSandbox, st.Dir())}
	sum, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 3, Matches: 6, Seed: 4})
	require.NoError(t, err)
	assert.Equal(t, 6, sum.Recorded)
	n := 0
	require.NoError(t, st.Matches(ctx, "ivanhoe", func(m store.Match) error {
		n++
		assert.FileExists(t, m.Replay)
		assert.True(t, strings.HasPrefix(m.Replay, filepath.Join(st.Dir(), "replays", "ivanhoe")), m.Replay)
		assert.False(t, m.Finished.Before(m.Started))
		for _, s := range m.Seats {
			assert.Equal(t, "ok", s.Ending)
		}
		return nil
	}))
	assert.Equal(t, 6, n)
	checkBlocks(t, st, true)
}

// The smoke test of `bot add` runs the candidate in the ladder's sandbox: the ladder's
// data directory is not there at all (with only the bot's own user id, the database
// would still be in sight, just not readable).
func TestACandidateCannotSeeTheLadder(t *testing.T) {
	st := newLadder(t)
	db := filepath.Join(st.Dir(), "ladder.db")
	require.FileExists(t, db)
	// Open to all, so that only the hiding keeps the database out of sight.
	for _, d := range []string{st.Dir(), filepath.Dir(st.Dir())} {
		require.NoError(t, os.Chmod(d, 0o755))
	}
	require.NoError(t, os.Chmod(db, 0o644))
	opp, err := testBuiltin("random")
	require.NoError(t, err)
	peek := protocol.LaunchConfig{Path: os.Args[0], Env: append([]string{serveEnv + "=peek", "ARENA_TEST_PEEK=" + db}, testkit.ChildEnv()...)}
	sb := Sandbox(sandbox.Config{}, st.Dir())
	layers, err := sb.Layers()
	require.NoError(t, err)
	for _, l := range layers {
		if l.Layer == sandbox.MountNamespace && !l.Active {
			t.Skipf("no mount namespace on this machine: %s", l.Reason)
		}
	}
	require.NoError(t, Smoke(ctx, "ivanhoe", peek, opp, sb))
	// Not auto without Hide: there the mount view covers the whole of /tmp, where the
	// test's ladder lies, as it covers /var and the homes where ladders are kept.
	assert.Error(t, Smoke(ctx, "ivanhoe", peek, opp, sandbox.Config{Level: sandbox.None}), "without a sandbox the candidate sees the database")
}

// A failed smoke test tells the author what their bot wrote to stderr, its last
// SmokeStderrBytes, and how its seat ended, but nothing of the arena's own account.
func TestSmokeTellsTheBotsOwnStderr(t *testing.T) {
	smoke := smokeWith("ivanhoe")
	t.Run("a bot that dies in play: the last bytes it wrote", func(t *testing.T) {
		path := script(t, fmt.Sprintf("%s=blurt exec %q \"$@\"", serveEnv, os.Args[0]))
		var se *SmokeError
		require.ErrorAs(t, smoke(ctx, protocol.LaunchConfig{Path: path}), &se)
		assert.Equal(t, "crash", se.Ending)
		assert.Equal(t, "ivanhoe", se.Game)
		require.Len(t, se.Stderr, SmokeStderrBytes, "%#v", se)
		assert.True(t, strings.HasSuffix(se.Stderr, "xxx last\n"), "the last bytes: %q", se.Stderr[len(se.Stderr)-20:])
		assert.NotContains(t, se.Stderr, "first")
	})
	t.Run("a bot that does not start: the last line it wrote", func(t *testing.T) {
		path := script(t, "echo one >&2; echo 'two \"quoted\"' >&2; exit 3")
		var se *SmokeError
		require.ErrorAs(t, smoke(ctx, protocol.LaunchConfig{Path: path}), &se)
		assert.Equal(t, "no start", se.Ending)
		assert.Equal(t, `two "quoted"`, se.Stderr)
		assert.Contains(t, se.Detail, path, "the operator's account names the program")
	})
}
