package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

var islandBoard, _ = filepath.Abs("../../engine/kardinal/testdata/island.txt")

// A game's options go through one mechanism: `--board F` for kardinal reaches the
// match, the Go bots (which decode their views on that board, or forfeit) and the
// replay, which re-simulates on it.
func TestMatchOnAnotherBoardGoesThroughTheGameOptions(t *testing.T) {
	dir := t.TempDir()
	r := runArena(t, dir, "match", "--game", "kardinal", "--board", islandBoard, "heuristic", "random", filepath.Join(bin, "random-bot"),
		"--games", "3", "--json", "--replays", "replays")
	require.Equal(t, 0, r.code, r.stderr)
	requireNoLeftovers(t)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	for _, b := range rep.Bots {
		assert.Equal(t, 3, b.Endings["ok"], "%s: every seat decoded its views and played", b.Name)
	}
	board, err := os.ReadFile(islandBoard)
	require.NoError(t, err)
	require.Len(t, rep.Matches, 3)
	for _, m := range rep.Matches {
		f, err := os.Open(filepath.Join(dir, m.Replay))
		require.NoError(t, err)
		first := bufio.NewScanner(f)
		first.Buffer(nil, 1<<20)
		require.True(t, first.Scan())
		f.Close()
		var header struct {
			Game    string            `json:"game"`
			Options map[string]string `json:"options"`
		}
		require.NoError(t, json.Unmarshal(first.Bytes(), &header))
		assert.Equal(t, "kardinal", header.Game)
		assert.Equal(t, string(board), header.Options["board"], "the header holds the board itself")
	}
	rr := runArena(t, dir, "replay", rep.Matches[0].Replay)
	require.Equal(t, 0, rr.code, rr.stderr)
	assert.Contains(t, rr.stdout, "option board: ")
	assert.Contains(t, rr.stdout, "reproduced")

	out, err := run(t, "play", "--game", "kardinal", "--players", "3", "--board", islandBoard)
	require.NoError(t, err)
	assert.Contains(t, out, "place 1: seat")
}

// A ladder of kardinal on another board is kept by its variant: its games never mix
// with those on the default board.
func TestLadderOfAnotherBoardIsKeptApart(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ladder.db")
	for _, add := range [][]string{
		{"bot", "add", "random", "--db", db},
		{"bot", "add", "heuristic", "--db", db},
		{"bot", "add", "random", "--name", "random2", "--db", db},
	} {
		r := runArena(t, dir, add...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"ladder", "run", "--game", "kardinal", "--board", islandBoard, "--matches", "6", "--seed", "1", "--db", db},
		{"ladder", "run", "--game", "kardinal", "--matches", "3", "--seed", "1", "--db", db},
	} {
		r := runArena(t, dir, args...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	requireNoLeftovers(t)
	tables := func(args ...string) map[string]int {
		r := runArena(t, dir, append([]string{"ladder", "standings", "--json", "--db", db}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
		var ts []struct {
			Game  string `json:"game"`
			Games int    `json:"games"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &ts), r.stdout)
		out := map[string]int{}
		for _, t := range ts {
			out[t.Game] = t.Games
		}
		return out
	}
	all := tables()
	require.Len(t, all, 2, "%v", all)
	assert.Equal(t, 3, all["kardinal"])
	var variant string
	for g, n := range all {
		if g != "kardinal" {
			variant = g
			assert.Equal(t, 6, n)
		}
	}
	assert.Regexp(t, `^kardinal@board-[0-9a-f]{12}$`, variant)
	assert.Equal(t, map[string]int{variant: 6}, tables("--game", "kardinal", "--board", islandBoard))
	assert.Equal(t, map[string]int{"kardinal": 3}, tables("--game", "kardinal"))
	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	blocks := map[int64]int{}
	require.NoError(t, st.Matches(context.Background(), variant, func(m store.Match) error { blocks[m.Block]++; return nil }))
	assert.Len(t, blocks, 2, "two blocks of three rotations")

	r := runArena(t, dir, "ladder", "standings", "--board", islandBoard, "--db", db)
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "--board needs --game")
}
