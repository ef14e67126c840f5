package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReplayOfADamagedFileIsOneErrorLine(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "..", "arena", "testdata", "replays", "ninjas.jsonl"))
	require.NoError(t, err)
	lines := strings.SplitAfter(string(good), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	head, body, result := lines[0], lines[1:len(lines)-1], lines[len(lines)-1]
	cases := map[string]struct{ text, want string }{
		"an ending with seat 7": {head + strings.Join(body, "") + `{"type":"ending","seat":7,"ending":"crash","n":0}` + "\n" + result,
			"seat 7 in a 2-player game"},
		"a result without score": {head + strings.Join(body, "") + strings.Replace(result, `"score"`, `"points"`, 1),
			"0 scores for 2 players"},
		"a header with no bots": {strings.Replace(head, `"bots"`, `"players_names"`, 1) + strings.Join(body, "") + result,
			"a header with 0 bots"},
		"a truncated file":  {string(good[:len(good)/2]), "replay line"},
		"garbage":           {"\x7fELF\x02\x01\x01", "replay line 1"},
		"an edited text":    {head + strings.Replace(body[0], `"text":"`, `"text":"x`, 1) + strings.Join(body[1:], "") + result, "does not reproduce"},
		"a header only":     {head, "without a result"},
		"an empty file":     {"", "empty replay"},
		"an unknown record": {head + `{"type":"comment"}` + "\n", `unknown record type "comment"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
			require.NoError(t, os.WriteFile(p, []byte(c.text), 0o644))
			for _, args := range [][]string{{"replay", p}, {"replay", "-q", p}} {
				r := runArena(t, dir, args...)
				assert.Equal(t, 1, r.code, r.stderr)
				assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one line: %s", r.stderr)
				assert.Contains(t, r.stderr, c.want)
				assert.NotContains(t, r.stderr, "panic")
				assert.NotContains(t, r.stdout, "reproduced")
			}
		})
	}
	abs, err := filepath.Abs(filepath.Join("..", "..", "arena", "testdata", "replays", "ninjas.jsonl"))
	require.NoError(t, err)
	r := runArena(t, dir, "replay", abs)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "reproduced")
}
