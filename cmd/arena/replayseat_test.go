package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
)

// replay --seat shows one seat's decisions, each with its view, options and choice,
// and nothing that seat could not see.
func TestReplaySeatStepsThroughOneSeat(t *testing.T) {
	dir := t.TempDir()
	r := runArena(t, dir, "match", filepath.Join(bin, "firstbot"), "random", "--games", "2", "--replays", "rp")
	require.Equal(t, 0, r.code, r.stderr)
	file := filepath.Join(dir, "rp", "d0000-r0.jsonl")
	f, err := os.Open(file)
	require.NoError(t, err)
	rep, err := arena.ReadReplay(f)
	f.Close()
	require.NoError(t, err)
	for seat := 0; seat < 2; seat++ {
		want := 0
		for _, d := range rep.Decisions {
			if d.Seat == seat {
				want++
			}
		}
		r := runArena(t, dir, "replay", file, "--seat", string(rune('0'+seat)))
		require.Equal(t, 0, r.code, r.stderr)
		out := r.stdout
		assert.Equal(t, want, strings.Count(out, "\ndecision "), "one block per decision of the seat")
		assert.Equal(t, want, strings.Count(out, "  view:\n"))
		assert.Equal(t, want, strings.Count(out, "  options:\n"))
		assert.Equal(t, want, strings.Count(out, "  chose "))
		assert.Contains(t, out, " ms)", "each choice says its time")
		other := "seat " + string(rune('0'+1-seat)) + " draws "
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, other) {
				assert.Contains(t, l, "a card", "seat %d saw another seat's private draw: %q", seat, l)
			}
		}
	}
	bad := runArena(t, dir, "replay", file, "--seat", "7")
	assert.Equal(t, 1, bad.code)
	assert.Contains(t, bad.stderr, "the match has seats 0 to 1")
}
