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

// A worker's read of a block brings the block with its rotations recorded, its bots
// (a retired one too) and their suspensions, and no other bot's.
func TestPostgresBlockToPlayReadsOnlyItsBots(t *testing.T) {
	st, err := OpenPostgres(ctx, pgtest.URL(t), t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	var bots []Bot
	for _, n := range []string{"a", "b", "c"} {
		b, err := st.AddBot(ctx, Bot{Name: n, Builtin: "random", SHA256: n})
		require.NoError(t, err)
		bots = append(bots, b)
	}
	blk, err := st.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 7, Bots: []int64{bots[1].ID, bots[0].ID}, Rotations: 2})
	require.NoError(t, err)
	_, err = st.RecordMatch(ctx, Match{Block: blk.ID, Rotation: 1, Game: "ivanhoe", Seats: []Seat{{Bot: bots[0].ID, Place: 1}, {Bot: bots[1].ID, Place: 2}}})
	require.NoError(t, err)
	require.NoError(t, st.SuspendBot(ctx, bots[1].ID, "test"))
	require.NoError(t, st.SuspendBot(ctx, bots[2].ID, "other"))
	_, err = st.RetireBot(ctx, "a")
	require.NoError(t, err)

	b, got, sus, err := st.BlockToPlay(ctx, blk.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{bots[1].ID, bots[0].ID}, b.Bots)
	assert.Equal(t, []int{1}, b.Done)
	require.Len(t, got, 2, "the block's two bots, not the third")
	assert.Equal(t, []int64{bots[0].ID, bots[1].ID}, []int64{got[0].ID, got[1].ID})
	assert.False(t, got[0].Active(), "the retired bot is read too")
	require.Len(t, sus, 1, "the suspension of the block's bot, not the other's")
	assert.Equal(t, bots[1].ID, sus[0].Bot)
	assert.True(t, sus[0].Holds())

	_, _, _, err = st.BlockToPlay(ctx, blk.ID+100)
	assert.ErrorIs(t, err, ErrNotFound)
}
