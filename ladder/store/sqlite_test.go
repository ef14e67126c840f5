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
