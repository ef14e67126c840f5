package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func perm(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Mode().Perm()
}

// A bot runs on the ladder's machine: nothing of the ladder's may be open to other
// users, from the first write on.
func TestANewLaddersFilesAreItsOwnersAlone(t *testing.T) {
	s, path := openTemp(t)
	require.NoError(t, PrivateDir(filepath.Join(s.Dir(), "bots")))
	_, err := s.db.Exec(`CREATE TABLE x (y INTEGER)`) // a write: the journal files are there
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), perm(t, filepath.Dir(path)), "the folder Open made")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		assert.Equal(t, os.FileMode(0o600), perm(t, p), p)
	}
	assert.Equal(t, os.FileMode(0o700), perm(t, filepath.Join(s.Dir(), "bots")))
}

// An older ladder left its database 0644 and its programs and replays in 0755
// folders: opening it again takes every other user's way in, and leaves the folder it
// lies in, which may be the user's own, as it was.
func TestAnOlderLaddersFilesAreTightenedOnOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "ladder.db")
	s, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	program := filepath.Join(dir, "bots", "0123abcd")
	replay := filepath.Join(dir, "replays", "ivanhoe", "block-1")
	for _, d := range []string{filepath.Dir(program), replay} {
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.Chmod(d, 0o755))
	}
	require.NoError(t, os.Chmod(filepath.Join(dir, "replays"), 0o755))
	require.NoError(t, os.WriteFile(program, []byte("#!/bin/sh\n"), 0o555))
	require.NoError(t, os.WriteFile(path+".lock", nil, 0o644))
	require.NoError(t, os.Chmod(path, 0o644))

	s, err = Open(path)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, os.FileMode(0o600), perm(t, path))
	assert.Equal(t, os.FileMode(0o600), perm(t, path+".lock"))
	assert.Equal(t, os.FileMode(0o700), perm(t, filepath.Join(dir, "bots")))
	assert.Equal(t, os.FileMode(0o700), perm(t, filepath.Join(dir, "replays")))
	assert.Equal(t, os.FileMode(0o755), perm(t, dir), "the folder is not the ladder's to change")
}

// A shared ladder's local cache (fetched programs, replays waiting to be stored) is a
// folder of the ladder's own, tightened as a whole.
func TestAnOlderCacheIsTightened(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pg-0123")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bots"), 0o755))
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Chmod(filepath.Join(dir, "bots"), 0o755))
	require.NoError(t, tightenCache(dir))
	assert.Equal(t, os.FileMode(0o700), perm(t, dir))
	assert.Equal(t, os.FileMode(0o700), perm(t, filepath.Join(dir, "bots")))
}
