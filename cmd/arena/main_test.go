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
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	app := newApp()
	app.Writer = &out
	app.ErrWriter = &out
	err := app.Run(append([]string{"arena"}, args...))
	return out.String(), err
}

func TestPlayPrintsAWholeSeededGame(t *testing.T) {
	out, err := run(t, "play", "--game", "ivanhoe", "--players", "3", "--seed", "5")
	require.NoError(t, err)
	for _, want := range []string{"--- tournament 1:", "chooses", "announces", "withdraws", "wins the", "takes a", "result after"} {
		assert.Contains(t, out, want)
	}
	assert.Regexp(t, `seat \d wins the game|adjudicated`, out)
	again, _ := run(t, "play", "--game", "ivanhoe", "--players", "3", "--seed", "5")
	assert.Equal(t, out, again, "the same seed gives the same game")
	other, _ := run(t, "play", "--game", "ivanhoe", "--players", "3", "--seed", "6")
	assert.NotEqual(t, out, other)
	hidden, _ := run(t, "play", "--players", "3", "--seed", "5", "--hidden")
	assert.Contains(t, hidden, "(private) seat")
	assert.NotContains(t, out, "(private)")
}

func TestEveryGamePlaysFromTheCommandLine(t *testing.T) {
	for _, tc := range []struct{ game, players, want string }{
		{"ivanhoe", "2", "announces"}, {"kardinal", "3", "places a monastery"}, {"ninjas", "6", "attacks seat"},
	} {
		out, err := run(t, "play", "--game", tc.game, "--players", tc.players, "--seed", "3")
		require.NoError(t, err, tc.game)
		assert.Contains(t, out, tc.want, tc.game)
		assert.Contains(t, out, "place 1: seat", tc.game)
	}
}

func TestBoardPrintsTheDefaultBoard(t *testing.T) {
	out, err := run(t, "board")
	require.NoError(t, err)
	for _, want := range []string{"reconstruction", "53 monastery spaces", "Frankreich 8 spaces", "Schwaben   4 spaces", "roads:", "Italien-Bayern"} {
		assert.Contains(t, out, want)
	}
}

// TestBadInputGivesOneLineAndFailure runs the real binary: one error line on stderr, a
// non-zero exit, no panic.
func TestBadInputGivesOneLineAndFailure(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "arena")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--game", "chess"}, `unknown game "chess"`},
		{[]string{"play", "--game", "ivanhoe", "--players", "6"}, "ivanhoe is played by 2 to 5 players, not 6"},
		{[]string{"play", "--players", "1"}, "not 1"},
		{[]string{"play", "extra"}, "play takes no arguments"},
		{[]string{"play", "--seed", "x"}, "invalid value"},
		{[]string{"play", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"nosuch"}, `unknown command "nosuch"`},
		{[]string{"board", "--file", "/no/such/board"}, "no such file"},
		{[]string{"board", "--file", "main.go"}, "main.go:"},
		{[]string{"play", "--game", "ivanhoe", "--board", "x"}, `--board: ivanhoe takes no option "board" (it takes none)`},
		{[]string{"play", "--game", "kardinal", "--board", "main.go"}, "--board main.go: kardinal: board line"},
		{[]string{"play", "--game", "kardinal", "--board", "/no/such/board"}, "--board: open /no/such/board: no such file"},
		{[]string{"play", "--game", "ninjas", "--deck", "main.go"}, "--deck main.go: ninjas: deck line"},
		{[]string{"worker", "--db", "postgres://nobody@127.0.0.1:1/x", "--stop-timeout", "-1s"}, "--stop-timeout must not be negative"},
		{[]string{"ladder", "serve", "--game", "ivanhoe", "--blocks-per-job", "0"}, "--blocks-per-job must be 1 to 64, got 0"},
		{[]string{"ladder", "serve", "--game", "ivanhoe", "--blocks-per-job", "65"}, "--blocks-per-job must be 1 to 64, got 65"},
	} {
		cmd := exec.Command(bin, tc.args...)
		var stderr, stdout bytes.Buffer
		cmd.Stderr, cmd.Stdout = &stderr, &stdout
		err := cmd.Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v", tc.args)
		assert.NotEqual(t, 0, exit.ExitCode())
		msg := strings.TrimSpace(stderr.String())
		assert.Contains(t, msg, tc.want, "%v", tc.args)
		assert.NotContains(t, msg, "panic")
		assert.Equal(t, 1, strings.Count(msg, "\n")+1, "one error line for %v: %q", tc.args, msg)
		assert.Empty(t, stdout.String(), "no usage dump for %v", tc.args)
	}
}

func TestFreshDirNeverReusesARunsDirectory(t *testing.T) {
	base := filepath.Join(t.TempDir(), "runs", "ivanhoe-20260101-000000")
	a, err := freshDir(base)
	require.NoError(t, err)
	b, err := freshDir(base)
	require.NoError(t, err)
	assert.Equal(t, base, a)
	assert.Equal(t, base+"-2", b)
}

// TestSPRTStopsTheMatchWhenItDecides: the heuristic is far stronger than random, so the
// README's test of nElo 0 against 5, with no --games (unbounded), accepts H1, and the
// report covers the completed deals only; --json carries the LLR, bounds and verdict.
func TestSPRTStopsTheMatchWhenItDecides(t *testing.T) {
	r := runArena(t, t.TempDir(), "match", "heuristic", "random", "--sprt", "0,5", "--no-replays")
	require.Equal(t, 0, r.code, r.stderr)
	out := r.stdout
	assert.Regexp(t, `LLR \d+\.\d+ \(bounds -2\.94, 2\.94\) after \d+ deal pairs .*: H1 accepted`, out)
	var games int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && f[0] == "heuristic" {
			games, _ = strconv.Atoi(f[1])
		}
	}
	assert.Greater(t, games, 0)
	assert.Equal(t, 0, games%2, "whole deals only")

	r = runArena(t, t.TempDir(), "match", "heuristic", "random", "--sprt", "0,5", "--no-replays", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		Games   int  `json:"games"`
		Stopped bool `json:"stopped"`
		SPRT    struct {
			LLR     float64 `json:"llr"`
			Lower   float64 `json:"lower_bound"`
			Upper   float64 `json:"upper_bound"`
			Pairs   int     `json:"deal_pairs"`
			Verdict string  `json:"verdict"`
		} `json:"sprt"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.True(t, rep.Stopped)
	assert.Equal(t, "H1 accepted", rep.SPRT.Verdict)
	assert.InDelta(t, -2.944, rep.SPRT.Lower, 0.001)
	assert.InDelta(t, 2.944, rep.SPRT.Upper, 0.001)
	assert.GreaterOrEqual(t, rep.SPRT.LLR, rep.SPRT.Upper)
	assert.Equal(t, rep.Games/2, rep.SPRT.Pairs, "one pentanomial count per deal")

	// Every bad spec is arena/sprt's TestParseRefusesABadSpec; here, that it is one line.
	for _, bad := range []struct{ spec, want string }{
		{"0,x", "is not a number"},
	} {
		r := runArena(t, t.TempDir(), "match", "heuristic", "random", "--sprt", bad.spec)
		assert.Equal(t, 1, r.code, "%v", bad)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one line: %s", r.stderr)
		assert.Contains(t, r.stderr, "--sprt", "%v", bad)
		assert.Contains(t, r.stderr, bad.want)
	}
	r = runArena(t, t.TempDir(), "match", "heuristic", "random", "random", "--sprt", "0,5")
	assert.Contains(t, r.stderr, "give two bots")
	requireNoLeftovers(t)
}
