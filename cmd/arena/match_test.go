package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/testlock"
)

// bin holds the binaries the tests build once: the arena itself, the standalone random
// bot and the "write your first bot" example.
var bin string

func TestMain(m *testing.M) {
	if os.Getenv(stubbornEnv) == "1" {
		serveStubborn()
		return
	}
	if os.Getenv(fillerEnv) == "1" {
		serveFiller()
		return
	}
	if parent := os.Getenv(replayWorkerEnv); parent != "" {
		holdReplayDir(parent)
		return
	}
	release := testlock.Heavy() // real processes by the hundred
	defer release()
	// Bots run as users of their own, and the stubborn test bot is a script that
	// starts this binary by its path: let every user reach it, as an installed one is
	// (only go test's own build directory is opened).
	if dir := filepath.Dir(os.Args[0]); strings.HasPrefix(filepath.Base(filepath.Dir(dir)), "go-build") {
		_ = os.Chmod(dir, 0o755)
		_ = os.Chmod(filepath.Dir(dir), 0o755)
	}
	dir, err := os.MkdirTemp("", "arena-cli-test")
	if err != nil {
		panic(err)
	}
	bin = dir
	for out, pkg := range map[string]string{"arena": ".", "random-bot": "../bots/random", "firstbot": "../../examples/firstbot", "noisybot": "./testdata/noisybot"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, out), pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			os.RemoveAll(dir)
			panic("building " + pkg + ": " + err.Error())
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	release()
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func runArena(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "arena"), args...)
	cmd.Dir = dir
	return runCmd(t, cmd)
}

// runCmd runs cmd to its end and returns its output and exit code.
func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{out.String(), errb.String(), code}
}

// leftovers lists live processes started from the test's binaries.
func leftovers() []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmd), bin) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue
		}
		out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

func requireNoLeftovers(t *testing.T) {
	t.Helper()
	var left []string
	if !poll.Eventually(func() bool { left = leftovers(); return len(left) == 0 }) {
		t.Fatalf("processes left running: %v", left)
	}
}

type report struct {
	Games int    `json:"games"`
	Seed  uint64 `json:"seed"`
	Bots  []struct {
		Name    string         `json:"name"`
		Games   int            `json:"games"`
		Endings map[string]int `json:"endings"`
	} `json:"bots"`
	Matches []struct {
		ID     string `json:"id"`
		Seed   uint64 `json:"seed"`
		Replay string `json:"replay"`
	} `json:"matches"`
}

func TestMatchEndToEndWithIvanhoe(t *testing.T) {
	dir := t.TempDir()
	r := runArena(t, dir, "match", "random", filepath.Join(bin, "random-bot"), "--games", "6", "-j", "2", "--seed", "7", "--json", "--replays", "replays")
	require.Equal(t, 0, r.code, r.stderr)
	requireNoLeftovers(t)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, 6, rep.Games)
	require.Len(t, rep.Bots, 2)
	for _, b := range rep.Bots {
		assert.Equal(t, 6, b.Games)
		assert.Equal(t, 6, b.Endings["ok"], b.Name)
	}
	require.Len(t, rep.Matches, 6)
	for _, m := range rep.Matches {
		rr := runArena(t, dir, "replay", "-q", m.Replay)
		assert.Equal(t, 0, rr.code, rr.stderr)
	}
	rr := runArena(t, dir, "replay", rep.Matches[0].Replay)
	require.Equal(t, 0, rr.code, rr.stderr)
	assert.Contains(t, rr.stdout, "reproduced")
	assert.Contains(t, rr.stdout, "ivanhoe")

	t.Run("the table and the plain progress lines", func(t *testing.T) {
		r := runArena(t, dir, "match", "random", "random", "--games", "2", "--no-replays")
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "random#1")
		assert.Contains(t, r.stdout, "Elo [95% CI]")
		assert.Contains(t, r.stderr, "2/2 d0000-r1")
		_, err := os.Stat(filepath.Join(dir, "arena-replays"))
		assert.True(t, os.IsNotExist(err), "--no-replays writes none")
	})
}

// TestMatchDrawsItsSeedAndRepeatsAGivenOne: without --seed every run deals afresh from a
// seed it reports (a bot cannot guess it); --seed with that seed repeats the deals; a
// seed small enough to guess is warned of.
func TestMatchDrawsItsSeedAndRepeatsAGivenOne(t *testing.T) {
	dir := t.TempDir()
	play := func(args ...string) (report, string) {
		r := runArena(t, dir, append([]string{"match", "random", "random", "--games", "4", "--no-replays", "--json"}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
		var rep report
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
		require.Len(t, rep.Matches, 4)
		return rep, r.stderr
	}
	deals := func(rep report) []uint64 {
		var out []uint64
		for _, m := range rep.Matches {
			out = append(out, m.Seed)
		}
		return out
	}
	a, stderr := play()
	b, _ := play()
	assert.NotEqual(t, a.Seed, b.Seed, "each run draws its seed")
	assert.NotEqual(t, deals(a), deals(b))
	assert.NotContains(t, stderr, "[WARN]")
	again, stderr := play("--seed", strconv.FormatUint(a.Seed, 10))
	assert.Equal(t, a.Seed, again.Seed)
	assert.Equal(t, deals(a), deals(again), "--seed repeats the deals")
	assert.NotContains(t, stderr, "[WARN]")
	_, stderr = play("--seed", "7")
	assert.Contains(t, stderr, "[WARN]  arena: --seed 7 is small enough for a bot to guess")
}

func TestFirstBotExamplePlays(t *testing.T) {
	r := runArena(t, t.TempDir(), "match", filepath.Join(bin, "firstbot"), "random", "--games", "10", "--no-replays", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, 10, rep.Bots[0].Endings["ok"], "the example never breaks a rule of the protocol")
	requireNoLeftovers(t)
}

// A bot that does not start forfeits its seats, typed, until the restart limit stops
// the run with one error line last.
func TestABotThatDoesNotStartStopsTheRunAtTheRestartLimit(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "script"), []byte("#!/bin/sh\necho hello\n"), 0o755))
	r := runArena(t, dir, "match", "random", "./script", "--max-restarts", "2", "--no-replays")
	assert.Equal(t, 1, r.code)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	assert.Contains(t, last, "arena: bot script does not start (2 restarts tried); stopping the run")
	assert.Contains(t, last, "Unrecognized remote plugin message: hello")
	assert.Contains(t, r.stderr, "script 2nd (protocol)", "a program is named by its base name; its seats forfeit as protocol errors meanwhile")
	requireNoLeftovers(t)
}

func TestBadInputIsOneErrorLine(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "script"), []byte("#!/bin/sh\necho hello\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "data"), []byte("x"), 0o644))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown game", []string{"match", "random", "random", "--game", "chess"}, `unknown game "chess"`},
		{"unknown bot", []string{"match", "random", "deep-blue"}, `unknown bot "deep-blue"`},
		{"a built-in bot's bad setting", []string{"match", "random", "ismcts:depth=3"}, `bot ismcts:depth=3: unknown setting "depth"`},
		{"settings for a bot without", []string{"match", "random:x=1", "random"}, `bot random:x=1: takes no settings`},
		{"one bot for a two-player game", []string{"match", "random"}, "2 to 5 players, not 1"},
		{"six bots for ivanhoe", []string{"match", "random", "random", "random", "random", "random", "random"}, "not 6"},
		{"not executable", []string{"match", "random", "./data"}, "not an executable"},
		{"missing file", []string{"match", "random", "./nothing-here"}, "no such file"},
		{"no bots", []string{"match"}, "one bot per seat"},
		{"replay of a missing file", []string{"replay", "nope.jsonl"}, "no such file"},
		{"replay of something else", []string{"replay", "script"}, "replay line 1"},
		{"serve-bot by hand", []string{"serve-bot", "random"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runArena(t, dir, c.args...)
			assert.NotEqual(t, 0, r.code, "exit code")
			assert.NotContains(t, r.stderr, "panic")
			if c.want != "" {
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				assert.Len(t, lines, 1, r.stderr)
				assert.True(t, strings.HasPrefix(lines[0], "arena: "), r.stderr)
				assert.Contains(t, r.stderr, c.want)
			}
			assert.Empty(t, r.stdout)
			requireNoLeftovers(t)
		})
	}
}

func TestBotsDoNotOutliveAKilledArena(t *testing.T) {
	cmd := exec.Command(filepath.Join(bin, "arena"), "match", "random", filepath.Join(bin, "random-bot"), "--games", "100000", "--no-replays")
	cmd.Dir = t.TempDir()
	var errb testkit.SyncBuffer
	cmd.Stderr = &errb
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() }) // a failed check below must not leave the run going
	// Each bot runs under its sandbox helper, which stays as its parent (and reaper):
	// two bots for the first match, then each bot's process of the other seat.
	poll.Until(t, "the arena and four bots each under its helper", func() bool {
		return strings.Contains(errb.String(), "/") && len(leftovers()) == 9
	})
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	// The parent-death signal is immediate; poll.Limit covers a loaded machine.
	poll.Until(t, "the bots to die with their arena", func() bool { return len(leftovers()) == 0 })
}

func TestEveryGamePlaysThroughBotProcesses(t *testing.T) {
	for _, c := range []struct {
		game string
		bots []string
	}{
		{"kardinal", []string{"heuristic", "random", filepath.Join(bin, "random-bot")}},
		{"ninjas", []string{"random", "heuristic"}},
		{"ivanhoe", []string{"heuristic", "random", "random"}},
		{"ivanhoe", []string{"ismcts:time=20ms", "heuristic"}},
		{"kardinal", []string{"ismcts:iterations=50", "heuristic", "random"}},
		{"ninjas", []string{"ismcts:iterations=50,time=1s", "random"}},
	} {
		t.Run(c.game+" "+strings.Join(c.bots, " "), func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"match", "--game", c.game, "--games", "3", "--json", "--replays", "r"}, c.bots...)
			r := runArena(t, dir, args...)
			require.Equal(t, 0, r.code, r.stderr)
			var rep report
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
			for _, b := range rep.Bots {
				assert.Equal(t, b.Games, b.Endings["ok"], b.Name)
			}
			for _, m := range rep.Matches {
				rr := runArena(t, dir, "replay", "-q", m.Replay)
				assert.Equal(t, 0, rr.code, rr.stderr)
			}
			requireNoLeftovers(t)
		})
	}
}
