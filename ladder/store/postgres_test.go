package store

import (
	"net"
	"strings"
	"testing"

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
