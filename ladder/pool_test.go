package ladder

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

// serveHoarder is a bot that remembers everything it is sent, in every game its
// process plays: each game's seed, and every view of every decision (its hand, every
// display, the piles). At the first decision of a game it writes one line naming its
// process and the game, with whether it was given a seed it had seen; at any decision
// whose view it saw in an earlier game, one more line: the deal, or part of it, came
// round again. A kept process that met a deal twice would see its hand again.
func serveHoarder(stderr io.Writer) {
	token := strconv.FormatUint(rand.Uint64(), 36)
	var mu sync.Mutex
	views := map[string]int{} // view → the game it was seen in
	seeds := map[uint64]bool{}
	games := 0
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		mu.Lock()
		games++
		game, again := games, seeds[m.Seed]
		seeds[m.Seed] = true
		mu.Unlock()
		play, first := random.New(m.Seed), true
		return engine.PolicyFunc(func(v engine.View, ev []engine.Event, o []engine.Option) int {
			key := fmt.Sprintf("%+v", v)
			mu.Lock()
			seen, ok := views[key]
			if !ok {
				views[key] = game
			}
			mu.Unlock()
			if first {
				fmt.Fprintf(stderr, "hoard %s game %d match %s seat %d seed-again %t\n", token, game, m.ID, m.Seat, again)
				first = false
			}
			if ok && seen != game {
				fmt.Fprintf(stderr, "hoard %s recalls in game %d a view of its game %d\n", token, game, seen)
			}
			return play.Choose(v, ev, o)
		})
	})
}

// hoarded is one game's line of a hoarder.
type hoarded struct {
	token, match string
	block        int64
	seat, game   int
	again        bool
}

// readHoards reads the hoarders' lines from every block's stderr files, and fails on
// a recollection. A seat's file holds its own game's line once; lines of games of other
// blocks, which a process serving two blocks at once wrote, only between the markers
// of the parts written while it was shared. It returns the files' own lines and how
// many files have shared parts.
func readHoards(t *testing.T, replays string) (own []hoarded, sharedFiles int) {
	files, err := filepath.Glob(filepath.Join(replays, "ivanhoe", "block-*", "stderr-*-seat-*.log"))
	require.NoError(t, err)
	for _, f := range files {
		var block int64
		_, err := fmt.Sscanf(filepath.Base(filepath.Dir(f)), "block-%d", &block)
		require.NoError(t, err)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		mine, shared, wasShared := 0, false, false
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if strings.HasPrefix(line, "--- arena: ") {
				shared = strings.Contains(line, "another block")
				wasShared = wasShared || shared
				continue
			}
			if !strings.HasPrefix(line, "hoard ") {
				continue
			}
			require.NotContains(t, line, "recalls", "a kept process met what it saw in an earlier game")
			h := hoarded{block: block}
			_, err := fmt.Sscanf(line, "hoard %s game %d match %s seat %d seed-again %t", &h.token, &h.game, &h.match, &h.seat, &h.again)
			require.NoError(t, err, line)
			if !strings.HasPrefix(h.match, fmt.Sprintf("block-%d/", block)) {
				assert.True(t, shared, "%s: a line of another block's game %s outside the shared parts", f, h.match)
				continue
			}
			own = append(own, h)
			mine++
		}
		assert.Equal(t, 1, mine, "%s: a seat's stderr has its game's line once", f)
		if wasShared {
			sharedFiles++
		}
	}
	return own, sharedFiles
}

// TestKeptBotsLearnNothingHiddenAcrossBlocks: a SQLite ladder of hoarders whose
// processes stay up across blocks, each serving the two blocks played at once.
// Processes are kept (some play many games), each plays one seat, and none meets a
// deal twice: no process is given a seed it had, sees a view it saw in an earlier
// game, or plays two games of one block. Each seat's stderr file has its game's line,
// and another block's only where it is marked as written while the process was
// shared. When the run ends and the player is closed, nothing is left running.
func TestKeptBotsLearnNothingHiddenAcrossBlocks(t *testing.T) {
	st := newLadder(t)
	for _, name := range []string{"hoarder1", "hoarder2", "hoarder3"} {
		path := script(t, fmt.Sprintf("# %s\n%s=hoarder exec %q \"$@\"", name, serveEnv, os.Args[0]))
		_, err := AddBot(ctx, st, AddOptions{Name: name, Path: path})
		require.NoError(t, err)
	}
	replays := filepath.Join(st.Dir(), "replays")
	p := &ArenaPlayer{Launch: StoreLauncher(st.Dir(), testBuiltin), ReplayDir: replays, Clock: arena.DefaultClock(),
		Sandbox: Sandbox(testSandbox, st.Dir()), Pool: arena.NewPool(arena.PoolConfig{Share: 2})}
	sum, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Parallel: 2, Matches: 40, Seed: 9})
	require.NoError(t, err)
	assert.Positive(t, p.Pool.Idle(), "the processes are kept for the next blocks")
	p.Close(context.Background())
	assert.Zero(t, p.Pool.Idle())

	hoards, shared := readHoards(t, replays)
	t.Logf("%d of %d seat files have parts written while their process served another block", shared, len(hoards))
	// Any two tables of two out of three bots have a bot in common, and each block
	// holds its bots' processes of both seats: the two blocks in flight share one.
	assert.Positive(t, shared, "processes serve the two blocks played at once")
	require.Len(t, hoards, sum.Recorded*2, "one line per seat of every game")
	byToken := map[string][]hoarded{}
	for _, h := range hoards {
		byToken[h.token] = append(byToken[h.token], h)
	}
	most := 0
	for token, games := range byToken {
		most = max(most, len(games))
		blocks := map[int64]bool{}
		for _, h := range games {
			assert.False(t, h.again, "process %s was given a seed again", token)
			assert.Equal(t, games[0].seat, h.seat, "process %s plays one seat", token)
			assert.False(t, blocks[h.block], "process %s met block %d's deal twice", token, h.block)
			blocks[h.block] = true
		}
	}
	assert.GreaterOrEqual(t, most, 5, "processes stay up across blocks (%d processes for %d games)", len(byToken), len(hoards))
	checkBlocks(t, st, true)
	requireNoBots(t)
}

// requireNoBots fails when a process started from this test binary is still alive.
func requireNoBots(t *testing.T) {
	t.Helper()
	var left []string
	gone := poll.Eventually(func() bool {
		left = left[:0]
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if pid, err := strconv.Atoi(e.Name()); err != nil || pid == os.Getpid() {
				continue
			}
			cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if err == nil && strings.Contains(string(cmd), os.Args[0]) {
				left = append(left, e.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
			}
		}
		return len(left) == 0
	})
	require.True(t, gone, "bot processes left running: %v", left)
}
