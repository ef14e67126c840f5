package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A bot that times out in every game of a ladder is suspended after three, the run
// goes on without it, and every view shows it: the run's output, bot list, standings
// (table and JSON), the metrics of the next run. bot reinstate lifts it. Meanwhile a
// second run on the same database is refused, naming the first one's pid.
func TestLadderSuspendsABotThatTimesOutAndLocksTheDatabase(t *testing.T) {
	dir, err := os.MkdirTemp(bin, "ladder-suspend-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db := filepath.Join(dir, "ladder.db")
	// 80 ms a decision passes the smoke test's 1 s deadline and fails the runs'
	// 5 ms (55 ms with the transport's grace) whatever the load: the bot sleeps that
	// long before it answers.
	slow := buildSleepyBot(t, 80*time.Millisecond)
	for _, add := range [][]string{{"random"}, {"heuristic"}, {slow, "--name", "slow"}} {
		r := runArena(t, dir, append(append([]string{"bot", "add"}, add...), "--db", db)...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--players", "2", "--decision", "5ms", "--matches", "16",
		"--sandbox", "basic", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "suspended slow v1: timed out or crashed in 3 of its 3 games, more than the 25% allowed (--max-forfeit-share)")
	assert.Contains(t, r.stderr, "arena bot reinstate slow")

	r = runArena(t, dir, "bot", "list", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `slow .*suspended: timed out or crashed in 3 of its 3 games`, r.stdout)
	r = runArena(t, dir, "ladder", "standings", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "suspended: slow v1 timed out or crashed")
	r = runArena(t, dir, "ladder", "standings", "--json", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables))
	for _, s := range tables[0].Standings {
		if s.Bot == "slow" {
			assert.Contains(t, s.Suspended, "3 of its 3 games")
			assert.LessOrEqual(t, s.Games, 4, "suspended at its third game, it finishes that block only")
		} else {
			assert.Empty(t, s.Suspended, s.Bot)
		}
	}

	// An open-ended run with metrics; a second run on the same database meanwhile.
	k := startLadder(t, dir, "--game", "ivanhoe", "--players", "2", "--metrics-addr", "127.0.0.1:0", "--db", db)
	url := ""
	for l := range k.lines {
		if u, ok := strings.CutPrefix(logMessage(l), "metrics on "); ok {
			url = u
		}
		if _, _, ok := gameLine(l); ok {
			break
		}
	}
	require.NotEmpty(t, url)
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--matches", "2", "--db", db)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, fmt.Sprintf("arena: ladder %s is in use: process %d is running `ladder run` on it (one run per database at a time)\n", db, k.cmd.Process.Pid), r.stderr)
	resp, err := http.Get(url)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), `arena_ladder_bot_suspended{bot="slow",game="ivanhoe",ladder="ladder",version="1"} 1`)
	assert.Contains(t, string(body), `arena_ladder_bot_suspended{bot="random",game="ivanhoe",ladder="ladder",version="1"} 0`)
	assert.Contains(t, string(body), `arena_ladder_active_bots{game="ivanhoe",ladder="ladder"} 2`, "a suspended bot does not play")
	assert.Contains(t, string(body), `arena_ladder_suspended_bots{game="ivanhoe",ladder="ladder"} 1`)
	require.NoError(t, k.cmd.Process.Signal(syscall.SIGINT))
	go func() {
		for range k.lines {
		}
	}()
	err = k.cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, exitInterrupted, ee.ExitCode())
	waitNoLeftovers(t)

	r = runArena(t, dir, "bot", "reinstate", "slow", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "reinstated slow v1\n", r.stdout)
	r = runArena(t, dir, "bot", "list", "--db", db)
	assert.NotContains(t, r.stdout, "suspended")
	r = runArena(t, dir, "bot", "reinstate", "slow", "--db", db)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `no suspended bot named "slow"`)
}

func TestLadderRunTakesTheSandboxFlags(t *testing.T) {
	dir := t.TempDir()
	r := runArena(t, dir, "ladder", "run", "--help")
	require.Equal(t, 0, r.code, r.stderr)
	for _, f := range []string{"--sandbox", "--bot-memory", "--bot-processes", "--bot-disk", "--max-forfeit-share", "--match-time", "--startup"} {
		assert.Contains(t, r.stdout, f)
	}
	assert.Contains(t, r.stdout, "suspend a bot", "the share is a suspension in the ladder")
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--max-forfeit-share", "2", "--db", filepath.Join(dir, "l.db"))
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "arena: --max-forfeit-share 2 is not a share between 0 and 1\n", r.stderr)
	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--sandbox", "paper", "--db", filepath.Join(dir, "l.db"))
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "paper")
}
