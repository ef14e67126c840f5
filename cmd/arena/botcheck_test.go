package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	r = runArena(t, dir, "match", "random", "random", "--bot-read", filepath.Join(dir, "no-such-runtime"))
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "arena: --bot-read: stat "+filepath.Join(dir, "no-such-runtime")+": no such file or directory\n", r.stderr)
	// The run's replays are hidden from the bots: a folder to read that holds them is
	// refused before any bot starts.
	r = runArena(t, dir, "match", "random", "random", "--games", "2", "--bot-read", dir, "--replays", filepath.Join(dir, "replays"))
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "which they must not see")
	assert.Equal(t, 1, strings.Count(r.stderr, "\n"), r.stderr)
	requireNoLeftovers(t)
}

// A bot in another language may never notice that its arena died; the parent-death
// signal (and, where there is one, its PID namespace) ends it anyway.
func TestABotThatIgnoresItsParentDiesWithAKilledArena(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "silent")
	require.NoError(t, os.WriteFile(bot, []byte("#!/bin/sh\nexec sleep 31.4159\n"), 0o755))
	sleepers := func() []string {
		var out []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if err == nil && strings.Contains(string(cmd), "31.4159") {
				stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
				if f := strings.Fields(string(stat)); len(f) > 2 && f[2] != "Z" {
					out = append(out, e.Name())
				}
			}
		}
		return out
	}
	for _, level := range []string{"none", "auto"} {
		t.Run(level, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(bin, "arena"), "match", "random", bot, "--startup", "30s", "--no-replays", "--sandbox", level)
			cmd.Dir = dir
			require.NoError(t, cmd.Start())
			deadline := time.Now().Add(5 * time.Second)
			for len(sleepers()) == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			require.NotEmpty(t, sleepers(), "the silent bot is running")
			require.NoError(t, cmd.Process.Kill())
			_ = cmd.Wait()
			deadline = time.Now().Add(2 * time.Second)
			for len(sleepers()) > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			assert.Empty(t, sleepers(), "the bot died with its arena")
		})
	}
}
