package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reading and changing commands never create a database: a typo in --db is one error
// line, and nothing appears on disk.
func TestLadderReadingCommandsDoNotCreateADatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "typo", "x.db")
	for _, args := range [][]string{
		{"ladder", "standings", "--db", db},
		{"bot", "list", "--db", db},
		{"bot", "retire", "mybot", "--db", db},
		{"bot", "reactivate", "mybot", "--db", db},
	} {
		r := runArena(t, dir, args...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, r.stderr)
		assert.Contains(t, r.stderr, "no ladder database at "+db)
	}
	_, err := os.Stat(filepath.Join(dir, "typo"))
	assert.True(t, os.IsNotExist(err), "nothing was created")
}

// One program plays under one name; a retired bot comes back; a changed store copy is
// put back by adding the original again, as the error says.
func TestLadderBotBookkeeping(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "l.db")
	ok := func(args ...string) string {
		t.Helper()
		r := runArena(t, dir, append(args, "--db", db)...)
		require.Equal(t, 0, r.code, "%v: %s", args, r.stderr)
		return r.stdout
	}
	fails := func(want string, args ...string) {
		t.Helper()
		r := runArena(t, dir, append(args, "--db", db)...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Contains(t, r.stderr, want, "%v", args)
	}
	firstbot := filepath.Join(bin, "firstbot")
	ok("bot", "add", "random")
	ok("bot", "add", firstbot, "--name", "fb")
	fails("the same program (sha256", "bot", "add", firstbot, "--name", "fb2")
	ok("bot", "add", "random", "--name", "r2") // a built-in may fill more than one seat

	ok("bot", "retire", "fb")
	fails("bring it back with `arena bot reactivate fb`", "bot", "add", firstbot, "--name", "fb")
	assert.Contains(t, ok("bot", "reactivate", "fb"), "reactivated fb v1")
	assert.Contains(t, ok("bot", "list"), "fb ")
	fails("is active already", "bot", "reactivate", "fb")

	// Change the store's copy: the run refuses it and says how to put it back.
	copies, err := filepath.Glob(filepath.Join(dir, "bots", "*"))
	require.NoError(t, err)
	require.Len(t, copies, 1)
	require.NoError(t, os.Chmod(copies[0], 0o755))
	require.NoError(t, os.WriteFile(copies[0], []byte("#!/bin/sh\nexit 1\n"), 0o755))
	fails("arena bot add ORIGINAL --name fb", "ladder", "run", "--game", "ivanhoe", "--matches", "1")
	ok("bot", "add", firstbot, "--name", "fb")
	ok("ladder", "run", "--game", "ivanhoe", "--matches", "2")
	assert.Contains(t, ok("ladder", "standings"), "fb")
}

// A ladder in a folder its reader cannot write still serves standings and the bot list.
func TestLadderInAReadOnlyFolderCanBeRead(t *testing.T) {
	base, err := os.MkdirTemp("", "arena-ro-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(base, "ladder"), 0o755); os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	ladderDir := filepath.Join(base, "ladder")
	db := filepath.Join(ladderDir, "l.db")
	for _, args := range [][]string{{"bot", "add", "random"}, {"bot", "add", "heuristic"},
		{"ladder", "run", "--game", "ivanhoe", "--matches", "2"}} {
		r := runArena(t, base, append(args, "--db", db)...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	require.NoError(t, os.Chmod(db, 0o444))
	require.NoError(t, os.Chmod(ladderDir, 0o555))
	before, err := os.ReadFile(db)
	require.NoError(t, err)

	for _, args := range [][]string{{"bot", "list"}, {"ladder", "standings", "--game", "ivanhoe"}} {
		cmd := exec.Command(filepath.Join(bin, "arena"), append(args, "--db", db)...)
		cmd.Dir = base
		if os.Geteuid() == 0 {
			// root writes anywhere: read as an ordinary user, as the folder's readers would.
			require.NoError(t, os.Chmod(bin, 0o755))
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%v: %s", args, out)
		assert.Contains(t, string(out), "heuristic", "%v", args)
	}
	after, err := os.ReadFile(db)
	require.NoError(t, err)
	assert.Equal(t, before, after, "reading changed nothing")
	left, _ := filepath.Glob(filepath.Join(ladderDir, "*-shm"))
	assert.Empty(t, left)
}
