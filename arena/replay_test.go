package arena

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realReplays are replays written by `arena match` of each game, kept as test data.
func realReplays(t testing.TB) map[string][]byte {
	paths, err := filepath.Glob(filepath.Join("testdata", "replays", "*.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[filepath.Base(p)] = b
	}
	return out
}

// checkReplay reads, re-simulates and prints a replay, as `arena replay` does.
func checkReplay(b []byte) error {
	rep, err := ReadReplay(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return WriteReadable(io.Discard, rep, true)
}

// damaged edits a replay's lines: edit gets each line with its number (0 is the
// header) and returns what to write instead.
func damaged(b []byte, edit func(i int, line string) string) []byte {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := range lines {
		lines[i] = edit(i, lines[i])
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// damages are the ways a replay gets damaged, each with the error it must give.
func damages(b []byte) map[string]struct {
	replay []byte
	want   string
} {
	n := strings.Count(string(b), "\n")
	last := func(edit func(string) string) []byte {
		return damaged(b, func(i int, l string) string {
			if i == n-1 {
				return edit(l)
			}
			return l
		})
	}
	type c = struct {
		replay []byte
		want   string
	}
	return map[string]c{
		"an ending with seat 7": {last(func(l string) string {
			return `{"type":"ending","seat":7,"ending":"crash","n":0}` + "\n" + l
		}), "seat 7 in a 2-player game"},
		"a result without score": {last(func(l string) string { return strings.Replace(l, `"score":`, `"scores":`, 1) }),
			"0 scores for 2 players"},
		"a header with no bots": {damaged(b, func(i int, l string) string {
			if i == 0 {
				return strings.Replace(l, `"bots":`, `"robots":`, 1)
			}
			return l
		}), "a header with 0 bots for 2 players"},
		"a truncated line": {b[:len(b)-20], "replay line"},
		"no result":        {last(func(string) string { return "" }), "replay line"},
		"garbage":          {[]byte("\x00\x01garbage\n"), "replay line 1"},
		"an edited decision text": {damaged(b, func(i int, l string) string {
			if i == 2 {
				return strings.Replace(l, `"text":"`, `"text":"not `, 1)
			}
			return l
		}), "does not reproduce"},
		"a decision out of order": {damaged(b, func(i int, l string) string {
			if i == 2 {
				return strings.Replace(l, `"n":1,`, `"n":5,`, 1)
			}
			return l
		}), "decision 5 where decision 1 was due"},
		"an unknown game": {damaged(b, func(i int, l string) string {
			if i == 0 {
				return strings.Replace(l, `"game":"ninjas"`, `"game":"chess"`, 1)
			}
			return l
		}), "chess"},
	}
}

func TestRealReplaysReproduce(t *testing.T) {
	for name, b := range realReplays(t) {
		assert.NoError(t, checkReplay(b), name)
	}
}

func TestADamagedReplayIsAnErrorNeverAPanic(t *testing.T) {
	b := realReplays(t)["ninjas.jsonl"]
	for name, c := range damages(b) {
		t.Run(name, func(t *testing.T) {
			err := checkReplay(c.replay)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

// FuzzReadReplay feeds the reader (and the re-simulation and printing behind it)
// anything: it may refuse, never panic. Seeded with real replays and their damages.
// To fuzz (bound the minimization: the inputs are kilobytes long):
//
//	go test -run '^$' -fuzz FuzzReadReplay -fuzztime 60s -fuzzminimizetime 50x ./arena/
func FuzzReadReplay(f *testing.F) {
	for _, b := range realReplays(f) {
		f.Add(b)
		for _, c := range damages(b) {
			f.Add(c.replay)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = checkReplay(b)
	})
}
