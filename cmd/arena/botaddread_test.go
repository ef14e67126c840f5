package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBotAddGivesTheSmokeTestWhatToRead: a submitted script that runs a program
// outside the system's folders (a runtime of its own) fails its smoke test, since the
// bot may not read that program; `bot add --bot-read` gives it, as `ladder run
// --bot-read` gives the playing bots, and the bot is added. A path that is not there is
// one error line.
func TestBotAddGivesTheSmokeTestWhatToRead(t *testing.T) {
	dir := t.TempDir()
	runtime := filepath.Join(dir, "runtime")
	require.NoError(t, os.MkdirAll(runtime, 0o755))
	require.NoError(t, os.Chmod(dir, 0o755)) // bots run as users of their own
	data, err := os.ReadFile(filepath.Join(bin, "random-bot"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(runtime, "random-bot"), data, 0o755))
	script := filepath.Join(dir, "scripted")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexec "+filepath.Join(runtime, "random-bot")+" \"$@\"\n"), 0o755))
	db := filepath.Join(dir, "data", "ladder.db")

	r := runArena(t, dir, "bot", "add", script, "--db", db)
	assert.Equal(t, 1, r.code, "the runtime is out of the bot's reach: %s", r.stdout)
	assert.Contains(t, r.stderr, "runtime/random-bot: not found", "the smoke test failed for want of its runtime")
	r = runArena(t, dir, "bot", "add", script, "--db", db, "--bot-read", runtime)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "added ")
	r = runArena(t, dir, "bot", "add", script, "--db", db, "--bot-read", filepath.Join(dir, "nowhere"))
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `^arena: --bot-read: stat .*nowhere: no such file or directory\n$`, r.stderr)
	requireNoLeftovers(t)
}
