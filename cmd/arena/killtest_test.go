package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
)

// buildSleepyBot builds the test bot that sleeps before every decision.
func buildSleepyBot(t *testing.T, sleep time.Duration) string {
	t.Helper()
	out := filepath.Join(bin, "sleepybot-"+sleep.String())
	cmd := exec.Command("go", "build", "-ldflags", "-X main.sleep="+sleep.String(), "-o", out, "./testdata/sleepybot")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	return out
}

// killedLadder is one `ladder run` started to be killed.
type killedLadder struct {
	cmd   *exec.Cmd
	lines chan string
}

func startLadder(t *testing.T, dir string, args ...string) *killedLadder {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "arena"), append([]string{"ladder", "run", "--log-level", "debug"}, args...)...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	k := &killedLadder{cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			k.lines <- sc.Text()
		}
		close(k.lines)
	}()
	return k
}

// waitGames waits for n recorded games to be reported, the run to end, or the
// deadline, whichever comes first.
func (k *killedLadder) waitGames(n int, deadline time.Time) {
	for seen := 0; seen < n; {
		select {
		case l, ok := <-k.lines:
			if !ok {
				return
			}
			if _, _, ok := gameLine(l); ok {
				seen++
			}
		case <-time.After(time.Until(deadline)):
			return
		}
	}
}

// kill sends SIGKILL and reaps the process; it returns what the run printed that
// was not read yet.
func (k *killedLadder) kill(t *testing.T) []string {
	t.Helper()
	_ = k.cmd.Process.Signal(syscall.SIGKILL)
	_ = k.cmd.Wait()
	var rest []string
	for l := range k.lines {
		rest = append(rest, l)
	}
	return rest
}

// waitNoLeftovers polls until no process started from the test's binaries is alive.
// Bots of a killed arena go by their parent-death signal or their PID namespace;
// the SDK's own poll of its parent, every 500 ms, is the slowest way, so 15 s is
// many times enough even with the machine loaded.
func waitNoLeftovers(t *testing.T) {
	t.Helper()
	waitGone(15 * time.Second)
	require.Empty(t, leftovers(), "nothing outlives a killed ladder")
}

// waitGone polls until no process started from the test's binaries is alive, or for
// d; it reports whether they are gone.
func waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for len(leftovers()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	return len(leftovers()) == 0
}

// The ladder's promise: `kill -9` at any moment loses at most the games in flight,
// and the next run resumes. A bot that sleeps in every decision keeps games in
// flight, and the kills land at random moments: at start-up, while a game is being
// played, just after a game was reported (while its record commits and the next
// game starts). Then a bounded run finishes, and the ladder is checked whole.
func TestLadderSurvivesKillsAtAnyMoment(t *testing.T) {
	dir, err := os.MkdirTemp(bin, "ladder-kills-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "data", "ladder.db")
	addKillBots(t, dir, db)
	rng := killSchedule(t, 1)
	const kills = 24
	begun := time.Now()
	midBlock, stragglers := 0, 0
	for i := range kills {
		last := lastBlock(t, db)
		k := startLadder(t, dir, "--game", "ivanhoe", "-j", "2", "--seed", fmt.Sprint(i), "--db", db)
		// Half the kills wait for a reported game first (a kill just after a record),
		// all wait a random moment of up to 400 ms more (in a game: one lasts about
		// 100-300 ms with the bot's sleeps).
		if rng.IntN(2) == 0 {
			k.waitGames(1+rng.IntN(2), time.Now().Add(30*time.Second))
		}
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		rest := k.kill(t)
		for _, l := range rest {
			require.False(t, strings.HasPrefix(l, "arena: "), "run %d failed before its kill: %v", i, rest)
		}
		if !waitGone(15 * time.Second) {
			// A kill while a bot starts can leave it running (its parent-death
			// signal set after its parent died); the next arena kills it with the
			// rest of a dead arena's cgroup. The last run's check below holds.
			stragglers++
			t.Logf("kill %d left %v", i, leftovers())
		}
		// A block this run began and did not finish: its games are played one after
		// another from the block's start, so the kill cut one in flight (or the
		// moment between two of them, or the block's bots starting).
		if cut := openBlocksSince(t, db, last); cut > 0 {
			midBlock++
		}
	}
	t.Logf("%d kills in %v, %d of them in a block in play, %d left a bot starting", kills, time.Since(begun).Round(time.Millisecond), midBlock, stragglers)
	// Most kills land in a block's games; a few landing there is what the test needs.
	require.GreaterOrEqual(t, midBlock, 3, "the kills hit blocks in play")

	st, err := store.Open(db)
	require.NoError(t, err)
	before := recorded(t, st)
	require.NoError(t, st.Close())

	// The bounded run: it resumes every block the kills left, then plays a few more.
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "-j", "2", "--matches", "60", "--seed", "99", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	waitNoLeftovers(t)
	checkLadderWhole(t, dir, db)
	st, err = store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	assert.Greater(t, recorded(t, st), before, "the last run played on")
}

// lastBlock is the ID of the ladder's newest block (0 for none, or no database yet).
func lastBlock(t *testing.T, db string) int64 {
	t.Helper()
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	return queryInt(t, db, `SELECT COALESCE(MAX(id), 0) FROM blocks`)
}

// openBlocksSince counts the blocks after block last that miss some of their games.
func openBlocksSince(t *testing.T, db string, last int64) int64 {
	t.Helper()
	return queryInt(t, db, `SELECT COUNT(*) FROM blocks b WHERE b.id > ?
		AND (SELECT COUNT(*) FROM matches m WHERE m.block_id = b.id) < b.rotations`, last)
}

// queryInt reads one number from the ladder's database with the bare driver.
func queryInt(t *testing.T, db, query string, args ...any) int64 {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	require.NoError(t, err)
	defer d.Close()
	var n int64
	require.NoError(t, d.QueryRow(query, args...).Scan(&n))
	return n
}

// addKillBots adds the bots of a kill test: random, heuristic, and a bot that sleeps
// 2 ms before every decision, so that games stay in flight long enough to be hit.
func addKillBots(t *testing.T, dir, db string) {
	t.Helper()
	sleepy := buildSleepyBot(t, 2*time.Millisecond)
	for _, add := range [][]string{{"random"}, {"heuristic"}, {sleepy, "--name", "sleepy"}} {
		r := runArena(t, dir, append(append([]string{"bot", "add"}, add...), "--db", db)...)
		require.Equal(t, 0, r.code, r.stderr)
	}
}

// killSchedule is the random source of a kill test's moments, its seed logged so
// that a failure can be replayed.
func killSchedule(t *testing.T, stream uint64) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill schedule seed %d", seed)
	return rand.New(rand.NewPCG(seed, stream))
}

// checkLadderWhole checks a ladder after kills: no game recorded twice; every block
// complete, with exactly one game per rotation; every recorded game's replay in the
// database, re-simulating with `arena replay --game-id`; no replay file (`ladder run`
// writes none), temporary or final; standings agreeing with the database.
func checkLadderWhole(t *testing.T, dir, db string) {
	t.Helper()
	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	open, err := st.OpenBlocks(context.Background(), "ivanhoe")
	require.NoError(t, err)
	assert.Empty(t, open, "every block is complete")

	rotations, players := map[int64][]int{}, map[int64]int{}
	var games []int64
	seats := map[string]int{}
	bots, err := st.Bots(context.Background(), true)
	require.NoError(t, err)
	name := map[int64]string{}
	for _, b := range bots {
		name[b.ID] = b.Name
	}
	require.NoError(t, st.Matches(context.Background(), "ivanhoe", func(m store.Match) error {
		require.False(t, slices.Contains(rotations[m.Block], m.Rotation), "block %d rotation %d recorded twice", m.Block, m.Rotation)
		rotations[m.Block] = append(rotations[m.Block], m.Rotation)
		players[m.Block] = len(m.Seats)
		games = append(games, m.ID)
		for _, s := range m.Seats {
			seats[name[s.Bot]]++
		}
		return nil
	}))
	for b, rots := range rotations {
		slices.Sort(rots)
		want := make([]int, players[b])
		for i := range want {
			want[i] = i
		}
		assert.Equal(t, want, rots, "block %d has one game per rotation", b)
	}
	for _, id := range games {
		r := runArena(t, dir, "replay", "-q", "--game-id", fmt.Sprint(id), "--db", db)
		require.Equal(t, 0, r.code, "game %d: %s", id, r.stderr)
	}
	err = filepath.WalkDir(filepath.Join(filepath.Dir(db), "replays"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		assert.False(t, strings.HasSuffix(p, arena.TempReplaySuffix), "a temporary replay is left: %s", p)
		assert.False(t, strings.HasSuffix(p, ".jsonl"), "a replay file beside the database: %s", p)
		return nil
	})
	if !errors.Is(err, fs.ErrNotExist) {
		require.NoError(t, err)
	}

	r := runArena(t, dir, "ladder", "standings", "--game", "ivanhoe", "--json", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables), r.stdout)
	require.Len(t, tables, 1)
	assert.Equal(t, len(games), tables[0].Games, "standings count every recorded game")
	for _, s := range tables[0].Standings {
		assert.Equal(t, seats[s.Bot], s.Games, "games of %s", s.Bot)
	}
	sqlDB, err := sql.Open("sqlite", db)
	require.NoError(t, err)
	defer sqlDB.Close()
	var ok string
	require.NoError(t, sqlDB.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	assert.Equal(t, "ok", ok)
}

// A full disk stops `ladder run` with one error line and damages nothing; with space
// freed, the next run resumes to completion. The ladder lives on a small tmpfs of
// its own (mounting one needs root: elsewhere the test skips, saying so).
func TestLadderSurvivesAFullDisk(t *testing.T) {
	dir, err := os.MkdirTemp(bin, "ladder-disk-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	disk := filepath.Join(dir, "disk")
	require.NoError(t, os.Mkdir(disk, 0o755))
	// 8 MiB: the database and the replays of the first games; bot programs are not
	// copied (built-in bots only).
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (needs root): %v: %s", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", disk).Run() })
	db := filepath.Join(disk, "ladder.db")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "-j", "2", "--matches", "6", "--seed", "1", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)

	// Fill the disk, then free a little: the next run starts, records a few games
	// and meets the full disk in the middle of writing.
	filler := filepath.Join(disk, "filler")
	fillDisk(t, filler)
	require.NoError(t, os.Truncate(filler, fileSize(t, filler)-96<<10))
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "-j", "2", "--matches", "1000", "--seed", "2", "--db", db)
	require.NotEqual(t, 0, r.code, "a full disk fails the run: %s", r.stderr)
	var errs []string
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if _, _, ok := gameLine(l); !ok {
			errs = append(errs, l)
		}
	}
	require.Len(t, errs, 1, r.stderr)
	assert.Regexp(t, `^arena: .*(no space left on device|disk is full)`, errs[0])
	assert.NotContains(t, r.stderr, "panic")
	waitNoLeftovers(t)

	// Nothing is damaged: with the space back, the ladder resumes and is whole.
	require.NoError(t, os.Remove(filler))
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "-j", "2", "--matches", "6", "--seed", "3", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	waitNoLeftovers(t)
	checkLadderWhole(t, dir, db)
}

func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "filling: %v", err)
			return
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fi.Size()
}

// recorded counts the recorded games.
func recorded(t *testing.T, st store.Store) int {
	n := 0
	require.NoError(t, st.Matches(context.Background(), "ivanhoe", func(store.Match) error { n++; return nil }))
	return n
}
