package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBotCheckPassesAGoodBot(t *testing.T) {
	r := runArena(t, t.TempDir(), "bot", "check", filepath.Join(bin, "random-bot"))
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	for _, want := range []string{"PASS  handshake", "PASS  health", "PASS  play ivanhoe", "PASS  play kardinal",
		"PASS  play ninjas", "PASS  timing ninjas", "PASS  shutdown", "all checks passed"} {
		assert.Contains(t, r.stdout, want)
	}
	requireNoLeftovers(t)
}

func TestBotCheckFailsABotThatDoesNotShakeHands(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "talker")
	require.NoError(t, os.WriteFile(bot, []byte("#!/bin/sh\necho hello\n"), 0o755))
	r := runArena(t, dir, "bot", "check", "--game", "ninjas", bot)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "FAIL  handshake")
	assert.Contains(t, r.stdout, "Unrecognized remote plugin message: hello")
	assert.Contains(t, r.stderr, "is not ready: handshake failed")
	requireNoLeftovers(t)
}

func TestMatchRecordsItsSandbox(t *testing.T) {
	dir := t.TempDir()
	for _, level := range []string{"none", "basic", "auto"} {
		r := runArena(t, dir, "match", "random", "random", "--games", "2", "--no-replays", "--json", "--sandbox", level)
		require.Equal(t, 0, r.code, r.stderr)
		var rep struct {
			Sandbox struct {
				Level  string   `json:"level"`
				Active []string `json:"active"`
			} `json:"sandbox"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
		assert.Equal(t, level, rep.Sandbox.Level)
		assert.Contains(t, rep.Sandbox.Active, "process-group")
		if level == "none" {
			assert.NotContains(t, rep.Sandbox.Active, "rlimits")
		} else {
			assert.Contains(t, rep.Sandbox.Active, "rlimits", "the arena binary is its own helper")
		}
	}
	r := runArena(t, dir, "match", "random", "random", "--sandbox", "paranoid")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `unknown sandbox level "paranoid"`)
	r = runArena(t, dir, "match", "random", "random", "--max-forfeit-share", "2")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "not a share between 0 and 1")
	requireNoLeftovers(t)
}
