package store

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/arena-games/arena/ladder/store/pgtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPostgresOpenErrorsAreOneLineWithoutPassword(t *testing.T) {
	// A port nobody listens on: bind one, note it, close it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	for _, db := range []string{
		"postgres://me:secret@" + addr + "/ladder?sslmode=disable&connect_timeout=5",
		"postgres://me:secret@[::1/x",
	} {
		s, err := OpenAny(ctx, db, t.TempDir())
		require.Error(t, err, db)
		assert.Nil(t, s)
		assert.True(t, strings.HasPrefix(err.Error(), "ladder database postgres://"), err.Error())
		assert.NotContains(t, err.Error(), "secret")
		assert.NotContains(t, err.Error(), "\n")
	}
}

func TestIsPostgresURL(t *testing.T) {
	assert.True(t, IsPostgresURL("postgres://h/db"))
	assert.True(t, IsPostgresURL("postgresql://h/db"))
	assert.False(t, IsPostgresURL("ladder.db"))
	assert.False(t, IsPostgresURL("./postgres://x"))
}

// One `ladder run` at a time per ladder (a schema), whatever machine it runs on: the
// second is told who holds it, and another ladder in the same database is free.
func TestPostgresRunLockIsOnePerLadder(t *testing.T) {
	url := pgtest.URL(t)
	open := func(url string) RunLocker {
		s, err := OpenAny(ctx, url, t.TempDir())
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		l, ok := s.(RunLocker)
		require.True(t, ok, "a PostgreSQL store locks its runs")
		return l
	}
	a, b := open(url), open(url)
	unlock, err := a.LockRun(ctx)
	require.NoError(t, err)
	_, err = b.LockRun(ctx)
	require.ErrorIs(t, err, ErrInUse)
	assert.Contains(t, err.Error(), fmt.Sprintf("pid %d", os.Getpid()), "the error names the holder")

	other := open(pgtest.URL(t))
	unlockOther, err := other.LockRun(ctx)
	require.NoError(t, err, "another ladder in the same database is not held")
	unlockOther()

	unlock()
	unlockB, err := b.LockRun(ctx)
	require.NoError(t, err, "released")
	unlockB()
}
