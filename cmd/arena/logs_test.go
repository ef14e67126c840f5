package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// jsonLines parses every line of a process's standard error as one JSON log object
// (hclog's: @level, @message, @timestamp, @module).
func jsonLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	objs := testkit.JSONLines(t, stderr)
	for _, o := range objs {
		for _, k := range []string{"@level", "@message", "@timestamp"} {
			require.Contains(t, o, k, o)
		}
	}
	return objs
}

// withMessage are the objects whose message starts with prefix.
func withMessage(objs []map[string]any, prefix string) []map[string]any {
	var out []map[string]any
	for _, o := range objs {
		if m, _ := o["@message"].(string); strings.HasPrefix(m, prefix) {
			out = append(out, o)
		}
	}
	return out
}

// `ladder run --log-format json` writes its log as one JSON object per line, its
// per-game lines at debug and a progress line per interval, and its last error too;
// the standings stay the command's output on stdout.
func TestLadderRunLogsJSON(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ladder.db")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--matches", "6", "--db", db,
		"--log-format", "json", "--log-level", "debug", "--progress-every", "1ms")
	require.Equal(t, 0, r.code, r.stderr)
	logs := jsonLines(t, r.stderr)
	games := withMessage(logs, "game recorded")
	require.Len(t, games, 6, r.stderr)
	assert.Equal(t, "debug", games[0]["@level"])
	assert.Contains(t, games[0], "block")
	assert.Contains(t, games[0]["seats"], "random v1")
	assert.NotEmpty(t, withMessage(logs, "games recorded"), "progress lines: %s", r.stderr)
	done := withMessage(logs, "recorded 6 games in 3 new blocks")
	require.Len(t, done, 1, r.stderr)
	assert.Equal(t, "info", done[0]["@level"])
	assert.Contains(t, r.stdout, "rank", "the standings are output, not log")

	r = runArena(t, dir, "ladder", "run", "--game", "chess", "--db", db, "--log-format", "json")
	assert.Equal(t, 1, r.code)
	logs = jsonLines(t, r.stderr)
	require.Len(t, logs, 1, "one error line, in the log's format")
	assert.Equal(t, "error", logs[0]["@level"])
	assert.Contains(t, logs[0]["@message"], `unknown game "chess"`)

	r = runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--db", db, "--log-format", "yaml")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "arena: --log-format \"yaml\": want one of text, json\n", r.stderr)
}

// A PostgreSQL ladder's coordinator and worker log JSON, River's lines among them
// (module arena.river) through the same logger, and the coordinator says when the
// worker joins (a worker stopping or going silent: ladder/queue's
// TestCoordinatorLogsAWorkerGone).
func TestWorkerAndCoordinatorLogJSON(t *testing.T) {
	db := pgtest.URL(t)
	dir, err := os.MkdirTemp(bin, "logs-pg-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	json := []string{"--log-format", "json", "--log-level", "debug"}
	co := startProc(t, dir, filepath.Join(dir, "cache-c"), append([]string{"ladder", "serve", "--game", "ivanhoe",
		"--addr", "127.0.0.1:0", "--db", db, "--refresh", "1s", "--queue-depth", "2"}, json...)...)
	w := startProc(t, dir, filepath.Join(dir, "cache-w"), append([]string{"worker", "--db", db, "-j", "1"}, json...)...)
	require.True(t, poll.Within(2*time.Minute, func() bool { return strings.Contains(w.text(), `"@message":"game recorded"`) }),
		"the worker plays: %s", w.text())
	// The coordinator looks at the workers every store.HeartbeatEvery (10 s).
	require.True(t, poll.Within(time.Minute, func() bool { return strings.Contains(co.text(), `"@message":"worker joined"`) }),
		"the coordinator sees the worker: %s", co.text())
	w.stop(t, "worker playing ")
	co.stop(t, "coordinating the ")

	wlogs := jsonLines(t, w.text())
	river := withMessage(wlogs, "River client started")
	require.Len(t, river, 1, w.text())
	assert.Equal(t, "arena.river", river[0]["@module"])
	assert.Equal(t, "debug", river[0]["@level"], "River's own housekeeping is debug")
	assert.NotEmpty(t, withMessage(wlogs, "worker stopped;"))
	clogs := jsonLines(t, co.text())
	joined := withMessage(clogs, "worker joined")
	require.NotEmpty(t, joined)
	assert.Equal(t, "arena.coordinator", joined[0]["@module"])
	assert.NotEmpty(t, withMessage(clogs, "serving the ivanhoe ladder on http://"))
}
