package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// machine runs arena as if on another machine: a local cache of its own.
func machine(t *testing.T, cache string, args ...string) result {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", cache)
	return runArena(t, t.TempDir(), args...)
}

// The ladder commands against a PostgreSQL database, from three "machines" that share
// nothing but its URL: one adds a bot program, another plays it (fetching the program
// into its own cache), a third shows standings and a replay.
func TestLadderOnPostgres(t *testing.T) {
	db := pgtest.URL(t)
	// Under bin, so that leftovers() also sees the programs fetched into the caches.
	root, err := os.MkdirTemp(bin, "ladder-pg-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	adder, player, viewer := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")

	for _, add := range [][]string{
		{"bot", "add", "random", "--db", db},
		{"bot", "add", filepath.Join(bin, "random-bot"), "--name", "plug", "--db", db},
	} {
		r := machine(t, adder, add...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "added ")
		assert.NotContains(t, r.stdout, "\n\n")
	}
	r := machine(t, viewer, "bot", "list", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "plug")

	r = machine(t, player, "ladder", "run", "--game", "ivanhoe", "--matches", "6", "--seed", "5", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	requireNoLeftovers(t)
	cached, err := filepath.Glob(filepath.Join(player, "arena", "pg-*", "bots", "*"))
	require.NoError(t, err)
	require.Len(t, cached, 1, "the player fetched the program into its cache")
	replays, _ := filepath.Glob(filepath.Join(player, "arena", "pg-*", "replays", "*", "*", "*.jsonl"))
	assert.Empty(t, replays, "recorded replays live in the database, not on the player")

	// A cached program changed on the player is fetched again before it plays.
	require.NoError(t, os.Chmod(cached[0], 0o755))
	require.NoError(t, os.WriteFile(cached[0], []byte("#!/bin/sh\nexit 1\n"), 0o755))
	r = machine(t, player, "ladder", "run", "--game", "ivanhoe", "--matches", "2", "--seed", "6", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	requireNoLeftovers(t)
	want, err := os.ReadFile(filepath.Join(bin, "random-bot"))
	require.NoError(t, err)
	got, err := os.ReadFile(cached[0])
	require.NoError(t, err)
	assert.Equal(t, store.SHA256Hex(want), store.SHA256Hex(got))

	r = machine(t, viewer, "ladder", "standings", "--game", "ivanhoe", "--json", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables), r.stdout)
	require.Len(t, tables, 1)
	assert.Equal(t, 8, tables[0].Games)

	for id := 1; id <= 8; id++ {
		r = machine(t, viewer, "replay", "--game-id", itoa(id), "--quiet", "--db", db)
		require.Equal(t, 0, r.code, "game %d: %s", id, r.stderr)
	}
	r = machine(t, viewer, "replay", "--game-id", "1", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "plug")
	r = machine(t, viewer, "replay", "--game-id", "99", "--db", db)
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "no game 99")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, r.stderr)

	r = machine(t, viewer, "bot", "retire", "plug", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
}

func itoa(i int) string { return strconv.Itoa(i) }

// An SQLite ladder moved into PostgreSQL ranks its bots exactly as before, and its
// replays show from the database.
func TestLadderMigrateKeepsStandings(t *testing.T) {
	db := pgtest.URL(t)
	dir, err := os.MkdirTemp(bin, "ladder-migrate-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	file := filepath.Join(dir, "data", "ladder.db")
	for _, args := range [][]string{
		{"bot", "add", "random", "--db", file},
		{"bot", "add", "heuristic", "--db", file},
		{"bot", "add", filepath.Join(bin, "random-bot"), "--name", "plug", "--db", file},
		{"ladder", "run", "--game", "ivanhoe", "--matches", "12", "--seed", "7", "--db", file},
		{"ladder", "run", "--game", "ninjas", "--matches", "6", "--seed", "8", "--db", file},
		{"bot", "retire", "heuristic", "--db", file},
	} {
		r := runArena(t, dir, args...)
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
	}
	standings := func(db string) (text, js string) {
		r := runArena(t, dir, "ladder", "standings", "--all", "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
		j := runArena(t, dir, "ladder", "standings", "--all", "--json", "--db", db)
		require.Equal(t, 0, j.code, j.stderr)
		return r.stdout, j.stdout
	}
	beforeText, beforeJSON := standings(file)
	for _, want := range []string{"ivanhoe", "ninjas", "plug", "heuristic", "95% interval"} {
		require.Contains(t, beforeText, want)
	}

	r := runArena(t, dir, "ladder", "migrate", "--from", file, "--to", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "moved 3 bots (1 programs)")
	afterText, afterJSON := standings(db)
	assert.Equal(t, beforeText, afterText)
	assert.JSONEq(t, beforeJSON, afterJSON)

	r = runArena(t, dir, "replay", "--game-id", "18", "--quiet", "--db", db)
	assert.Equal(t, 0, r.code, r.stderr)
	r = runArena(t, dir, "bot", "list", "--all", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "retired")

	r = runArena(t, dir, "ladder", "migrate", "--from", file, "--to", db)
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "already holds a ladder")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, r.stderr)
}

// The ladder service on a PostgreSQL ladder, with the same code as on SQLite: the
// operator adds a built-in bot and an author, serves the ladder (coordinating a
// worker), and the author's bot, submitted over HTTP with the token, is listed as
// theirs and is played by the worker.
func TestServeOnPostgres(t *testing.T) {
	db := pgtest.URL(t)
	dir, err := os.MkdirTemp(bin, "serve-pg-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	r := runArena(t, dir, "bot", "add", "random", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	r = runArena(t, dir, "author", "add", "ann", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	token := strings.TrimSpace(r.stdout)
	require.NotEmpty(t, token)

	s := startServe(t, dir, db)
	// On PostgreSQL the service coordinates: a worker plays its blocks.
	w := startWorker(t, dir, db, "-j", "1")
	program, err := os.ReadFile(filepath.Join(bin, "random-bot"))
	require.NoError(t, err)
	ct, body := upload(t, "annbot", program, nil)
	sub := call(t, nil, "POST", s.base+"/api/bots", token, ct, body)
	require.Equal(t, 201, sub.code, "%s\n%s", sub.body, s.text())
	mine := call(t, nil, "GET", s.base+"/api/bots", token, "", nil)
	require.Equal(t, 200, mine.code, mine.body)
	var bots []service.BotJSON
	require.NoError(t, json.Unmarshal([]byte(mine.body), &bots), mine.body)
	require.Len(t, bots, 1)
	assert.Equal(t, "annbot", bots[0].Name)
	assert.True(t, bots[0].Active)
	assert.Equal(t, 401, call(t, nil, "GET", s.base+"/api/bots", "wrong", "", nil).code)

	waitForGames(t, s, "annbot", 1)
	s.stop(t)
	w.stop(t, "worker playing ")
	assert.Contains(t, w.text(), "worker stopped;")
	requireNoLeftovers(t)
}
