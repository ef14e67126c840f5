package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// The end-to-end: two built-in bots and a plugin binary on a ladder, a run
// killed with SIGKILL in the middle, a resumed run, standings with intervals, and no
// game recorded twice.
func TestLadderSurvivesKillAndResumes(t *testing.T) {
	// Under bin, so that leftovers() also sees the plugin copied into the store.
	dir, err := os.MkdirTemp(bin, "ladder-e2e-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "data", "ladder.db")

	for _, add := range [][]string{
		{"bot", "add", "random", "--db", db},
		{"bot", "add", "heuristic", "--db", db},
		{"bot", "add", filepath.Join(bin, "random-bot"), "--name", "plug", "--db", db},
	} {
		r := runArena(t, dir, add...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "added ")
	}
	r := runArena(t, dir, "bot", "list", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	for _, want := range []string{"random", "heuristic", "plug", "built-in random"} {
		assert.Contains(t, r.stdout, want)
	}

	// An open-ended run, killed once it has recorded a dozen games.
	cmd := exec.Command(filepath.Join(bin, "arena"), "ladder", "run", "--game", "ivanhoe", "-j", "2", "--seed", "3", "--db", db, "--log-level", "debug")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(stderr)
	seen := 0
	for seen < 12 && lines.Scan() {
		if _, _, ok := gameLine(lines.Text()); ok {
			seen++
		}
	}
	require.Equal(t, 12, seen, "the run reports its games")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for len(leftovers()) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Empty(t, leftovers(), "no bot outlives the killed ladder")

	st, err := store.Open(db)
	require.NoError(t, err)
	// Every game recorded has its replay with it, in the database (countGames below).
	killed := recorded(t, st)
	assert.GreaterOrEqual(t, killed, 12, "every game the run reported is recorded")
	open, err := st.OpenBlocks(context.Background(), "ivanhoe")
	require.NoError(t, err)
	// The run records a block before playing it, and plays on while it waits for a
	// worker, so an open-ended run always dies with blocks open.
	require.NotEmpty(t, open, "the kill left incomplete blocks")
	require.NoError(t, st.Close())

	// The next run finishes the blocks the kill cut, then plays on.
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--matches", "15", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "an earlier run left")
	requireNoLeftovers(t)
	st, err = store.Open(db)
	require.NoError(t, err)
	total := countGames(t, st)
	assert.GreaterOrEqual(t, total, killed+15)
	open, err = st.OpenBlocks(context.Background(), "ivanhoe")
	require.NoError(t, err)
	assert.Empty(t, open, "every block is complete")
	require.NoError(t, st.Close())

	r = runArena(t, dir, "ladder", "standings", "--game", "ivanhoe", "--json", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables), r.stdout)
	require.Len(t, tables, 1)
	assert.Equal(t, total, tables[0].Games)
	assert.Equal(t, "random v1", tables[0].Anchor)
	require.Len(t, tables[0].Standings, 3)
	seats := 0
	for _, s := range tables[0].Standings {
		require.NotNil(t, s.Elo, s.Bot)
		require.NotNil(t, s.EloLow, s.Bot)
		require.NotNil(t, s.EloHigh, s.Bot)
		assert.LessOrEqual(t, *s.EloLow, *s.Elo+1e-9, s.Bot)
		assert.GreaterOrEqual(t, *s.EloHigh, *s.Elo-1e-9, s.Bot)
		seats += s.Games
		if s.Bot == "random" {
			assert.InDelta(t, 0, *s.Elo, 1e-9)
		}
	}
	assert.Equal(t, 3*total, seats, "three seats per game")
	assert.Equal(t, "heuristic", tables[0].Standings[0].Bot)

	r = runArena(t, dir, "ladder", "standings", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "95% interval")
}

// countGames counts the recorded games and fails on a (block, rotation) seen twice
// or a game whose replay the store cannot read.
func countGames(t *testing.T, st store.Store) int {
	t.Helper()
	seen := map[[2]int64]bool{}
	require.NoError(t, st.Matches(context.Background(), "ivanhoe", func(m store.Match) error {
		key := [2]int64{m.Block, int64(m.Rotation)}
		require.False(t, seen[key], "block %d rotation %d recorded twice", m.Block, m.Rotation)
		seen[key] = true
		replay, err := st.(store.Replays).Replay(context.Background(), m.ID)
		require.NoError(t, err, "the replay of game %d", m.ID)
		assert.NotEmpty(t, replay)
		return nil
	}))
	return len(seen)
}

func TestLadderBadInputIsOneErrorLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "l.db")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "script"), []byte("#!/bin/sh\necho hello\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.db"), []byte("my notes\n"), 0o644))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a program that is not a bot", []string{"bot", "add", "./script", "--db", db}, "failed its smoke test"},
		{"a missing program", []string{"bot", "add", "./nothing", "--db", db}, "no such file"},
		{"an unknown built-in", []string{"bot", "add", "deep-blue", "--db", db}, `unknown bot "deep-blue"`},
		{"retiring an unknown bot", []string{"bot", "retire", "nobody", "--db", db}, `no active bot named "nobody"`},
		{"a ladder without bots", []string{"ladder", "run", "--game", "ivanhoe", "--matches", "2", "--db", db}, "too few active bots"},
		{"an unknown game", []string{"ladder", "run", "--game", "chess", "--db", db}, `unknown game "chess"`},
		{"both limits", []string{"ladder", "run", "--game", "ivanhoe", "--matches", "2", "--for", "1s", "--db", db}, "one of --matches and --for"},
		{"a file that is not a database", []string{"ladder", "standings", "--db", filepath.Join(dir, "notes.db")}, "not an SQLite database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runArena(t, dir, c.args...)
			assert.NotEqual(t, 0, r.code)
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			assert.Len(t, lines, 1, r.stderr)
			assert.Contains(t, r.stderr, c.want)
			assert.NotContains(t, r.stderr, "panic")
			requireNoLeftovers(t)
		})
	}
	r := runArena(t, dir, "bot", "list", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "no bots yet", "the failed additions added nothing")
}

func TestLadderInterruptStopsCleanly(t *testing.T) {
	dir, err := os.MkdirTemp(bin, "ladder-int-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "ladder.db")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	cmd := exec.Command(filepath.Join(bin, "arena"), "ladder", "run", "--game", "ninjas", "--db", db, "--log-level", "debug")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(stderr)
	for n := 0; n < 4 && lines.Scan(); {
		if _, _, ok := gameLine(lines.Text()); ok {
			n++
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text() + "\n")
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, exitInterrupted, ee.ExitCode(), "Ctrl-C exits with the documented status for a stop by the user")
	assert.Contains(t, rest.String(), "interrupted: ")
	assert.Contains(t, rest.String(), "the next run resumes")
	requireNoLeftovers(t)
	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	n := 0
	require.NoError(t, st.Matches(context.Background(), "ninjas", func(store.Match) error { n++; return nil }))
	assert.GreaterOrEqual(t, n, 4)
}

// TestLadderMetricsOutliveARestart: a second ladder run serves the totals the database
// holds (the first run's games too) as gauges, while its own counters start at 0; bots
// are labelled by name with the version apart.
func TestLadderMetricsOutliveARestart(t *testing.T) {
	dir, err := os.MkdirTemp(bin, "ladder-metrics-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "ladder.db")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--matches", "6", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)

	cmd := exec.Command(filepath.Join(bin, "arena"), "ladder", "run", "--game", "ivanhoe", "--matches", "4", "--db", db,
		"--metrics-addr", "127.0.0.1:0", "--metrics-linger", "2m", "--log-level", "debug")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Signal(syscall.SIGINT); _ = cmd.Wait(); requireNoLeftovers(t) }()
	lines := bufio.NewScanner(stderr)
	url, second := "", 0
	for lines.Scan() { // until the run ends and the linger begins: the database is still
		l := logMessage(lines.Text())
		if u, ok := strings.CutPrefix(l, "metrics on "); ok {
			url = u
		}
		if _, _, ok := gameLine(lines.Text()); ok {
			second++
		}
		if strings.HasPrefix(l, "serving metrics") {
			break
		}
	}
	require.NotEmpty(t, url)
	go func() { // keep the pipe drained
		for lines.Scan() {
		}
	}()
	st, err := store.Open(db)
	require.NoError(t, err)
	total := 0
	require.NoError(t, st.Matches(context.Background(), "ivanhoe", func(store.Match) error { total++; return nil }))
	require.NoError(t, st.Close())
	require.Greater(t, total, second, "the first run's games are in the database too")

	resp, err := http.Get(url)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	for _, want := range []string{
		fmt.Sprintf(`arena_ladder_bot_games_total{bot="heuristic",game="ivanhoe",ladder="ladder",version="1"} %d`, total),
		fmt.Sprintf(`arena_ladder_games_total{game="ivanhoe",ladder="ladder"} %d`, total),
		fmt.Sprintf(`arena_ladder_games_recorded_total{bot="heuristic",game="ivanhoe",ladder="ladder",version="1"} %d`, second),
		`arena_ladder_rating_elo{bot="random",game="ivanhoe",kind="official",ladder="ladder",version="1"} 0`,
		`arena_ladder_rating_elo_upper{bot="heuristic",game="ivanhoe",ladder="ladder",version="1"}`,
		`arena_ladder_refit_failed{game="ivanhoe",ladder="ladder"} 0`,
		`arena_seat_endings_total{bot="heuristic",ending="ok",ladder="ladder"}`,
		`mode="ladder"`,
		`arena_runs_stopped_total{ladder="ladder",reason="done"} 1`,
		// The bank and the sandbox's layers, as a match exports them.
		`arena_clock_bank_seconds{ladder="ladder"} 60`,
		`arena_sandbox_layer_active{ladder="ladder",layer="no-new-privs"} `, // 0 or 1: the machine says
	} {
		assert.Contains(t, string(body), want)
	}
	// The lingering series are the final values: what `ladder standings` says, to the
	// last digit, and the totals of a full read.
	r = runArena(t, dir, "ladder", "standings", "--game", "ivanhoe", "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables))
	require.Len(t, tables, 1)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	require.NotEmpty(t, tables[0].Standings)
	for _, s := range tables[0].Standings {
		require.NotNil(t, s.Elo, "every bot played")
		labels := fmt.Sprintf(`{bot=%q,game="ivanhoe",ladder="ladder",version="%d"}`, s.Bot, s.Version)
		kind := func(k string) string { return strings.Replace(labels, `,ladder=`, `,kind="`+k+`",ladder=`, 1) }
		for _, want := range []string{
			fmt.Sprintf(`arena_ladder_bot_games_total%s %d`, labels, s.Games),
			fmt.Sprintf(`arena_ladder_rating_elo%s %s`, kind("official"), num(*s.Elo)),
			fmt.Sprintf(`arena_ladder_rating_elo%s %s`, kind("live"), num(*s.LiveElo)),
			fmt.Sprintf(`arena_ladder_rating_elo_lower%s %s`, labels, num(*s.EloLow)),
			fmt.Sprintf(`arena_ladder_rating_elo_upper%s %s`, labels, num(*s.EloHigh)),
		} {
			assert.Contains(t, string(body), want)
		}
	}
}
