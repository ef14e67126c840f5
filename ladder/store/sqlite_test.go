package store

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func openTemp(t *testing.T) (*SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nested", "ladder.db")
	s, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// raw opens the file with the bare driver, to look at or tamper with what Open wrote.
func raw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSQLiteOpen(t *testing.T) {
	t.Run("an empty path gets every migration, WAL and a schema_version", func(t *testing.T) {
		_, path := openTemp(t)
		db := raw(t, path)
		var v int
		require.NoError(t, db.QueryRow(`SELECT version FROM schema_version`).Scan(&v))
		assert.Equal(t, len(migrations), v)
		var mode string
		require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
		assert.Equal(t, "wal", mode)
	})

}

// openAt opens a store migrated only up to version v, as an older arena left it.
func openAt(path string, v int) (*SQLite, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_journal_mode=WAL")
	if err != nil {
		return nil, err
	}
	s := &SQLite{db: db, path: path}
	return s, s.migrate(ctx, v)
}

func TestSQLiteOpenRefusesWithoutTouching(t *testing.T) {
	damaged := func(t *testing.T, path string) {
		s, err := Open(path)
		require.NoError(t, err)
		addBots(t, s, "a", "b")
		require.NoError(t, s.Close())
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Greater(t, len(b), 4096)
		for i := 100; i < len(b); i++ { // keep the header, scramble the rest
			b[i] ^= 0x5a
		}
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
	cases := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    string
	}{
		{"a text file", func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, []byte("my notes\n"), 0o644)) }, "not an SQLite database"},
		{"a damaged database", damaged, "damaged"},
	}
	for _, c := range cases {
		t.Run(c.name+" gives one clear error and stays byte for byte", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ladder.db")
			c.prepare(t, path)
			before := digest(t, path)
			var s *SQLite
			var err error
			require.NotPanics(t, func() { s, err = Open(path) })
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), path)
			assert.NotContains(t, err.Error(), "\n")
			assert.Equal(t, before, digest(t, path))
		})
	}
	t.Run("a name with characters a URI reserves is the file's name", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "odd #1 %41")
		path := filepath.Join(dir, "a?b.db")
		s, err := Open(path)
		require.NoError(t, err)
		addBots(t, s, "a")
		require.NoError(t, s.Close())
		assert.FileExists(t, path)
		entries, err := os.ReadDir(filepath.Dir(dir))
		require.NoError(t, err)
		assert.Len(t, entries, 1, "nothing created beside the directory")
	})
	t.Run("a directory", func(t *testing.T) {
		_, err := Open(t.TempDir())
		require.ErrorContains(t, err, "is a directory")
	})
}

func digest(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	p, err := DefaultPath()
	require.NoError(t, err)
	assert.Equal(t, "/data/arena/ladder.db", p)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/me")
	p, err = DefaultPath()
	require.NoError(t, err)
	assert.Equal(t, "/home/me/.local/share/arena/ladder.db", p)
}

// `ladder run` keeps each replay with its game: read back by Replay, also after the
// ladder is closed and opened again, and no file is looked for.
func TestSQLiteKeepsReplaysWithTheirGames(t *testing.T) {
	s, path := openTemp(t)
	bots := addBots(t, s, "a", "b")
	blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 3, Rotations: 2, Bots: []int64{bots[0].ID, bots[1].ID}})
	require.NoError(t, err)
	replay := fakeReplay(90)
	m := game(blk, 0)
	m.ReplayData = replay
	m, err = s.RecordMatch(ctx, m)
	require.NoError(t, err)
	without, err := s.RecordMatch(ctx, game(blk, 1))
	require.NoError(t, err)
	got, err := s.Replay(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, replay, got)
	require.NoError(t, s.Close())

	s, err = Open(path)
	require.NoError(t, err)
	defer s.Close()
	got, err = s.Replay(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, replay, got, "the replay survives reopening")
	assert.NoFileExists(t, filepath.Join(s.Dir(), m.Replay))
	_, err = s.Replay(ctx, without.ID)
	require.ErrorIs(t, err, ErrNotFound, "a game without ReplayData has its file, here gone")
	assert.Contains(t, err.Error(), "is gone")
	var stored int
	require.NoError(t, raw(t, path).QueryRow(`SELECT length(gzip) FROM replays WHERE match_id = ?`, m.ID).Scan(&stored))
	assert.Less(t, stored, len(replay)/3, "kept gzipped")
}

// A ladder whose games were recorded before replays were kept in the database opens,
// migrates, and still reads those games' replays from their files; its new games keep
// theirs in the database.
func TestSQLiteReadsTheReplayFilesOfOlderGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.db")
	old, err := openAt(path, 5) // the schema before the replays table
	require.NoError(t, err)
	bots := addBots(t, old, "a", "b")
	blk, err := old.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 3, Rotations: 2, Bots: []int64{bots[0].ID, bots[1].ID}})
	require.NoError(t, err)
	before, err := old.RecordMatch(ctx, game(blk, 0))
	require.NoError(t, err)
	require.NoError(t, old.Close())
	file := fakeReplay(10)
	require.NoError(t, os.MkdirAll(filepath.Join(filepath.Dir(path), "replays"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(path), before.Replay), file, 0o644))

	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	got, err := s.Replay(ctx, before.ID)
	require.NoError(t, err)
	assert.Equal(t, file, got, "the older game's replay is its file")
	m := game(blk, 1)
	m.ReplayData = fakeReplay(20)
	m, err = s.RecordMatch(ctx, m)
	require.NoError(t, err)
	got, err = s.Replay(ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, fakeReplay(20), got)
	_, err = s.Replay(ctx, m.ID+1)
	require.ErrorIs(t, err, ErrNotFound)
}
