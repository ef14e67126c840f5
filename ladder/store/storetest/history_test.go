package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestASyntheticHistoryReadsAsRecordedGames: the store reads the generated games as
// it reads recorded ones: every game has two different bots of the ladder, the
// rotations swap the seats, and a few seats crashed.
func TestASyntheticHistoryReadsAsRecordedGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ladder.db")
	require.NoError(t, WriteSQLite(ctx, path, History{Games: 1000, Bots: 7}))
	st, err := store.Open(path)
	require.NoError(t, err)
	defer st.Close()
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	require.Len(t, bots, 7)
	games, crashes, ties := 0, 0, 0
	var prev store.Match
	require.NoError(t, st.Matches(ctx, Game, func(m store.Match) error {
		games++
		require.Len(t, m.Seats, 2)
		assert.NotEqual(t, m.Seats[0].Bot, m.Seats[1].Bot)
		for _, s := range m.Seats {
			assert.True(t, s.Bot >= bots[0].ID && s.Bot <= bots[6].ID)
			if s.Ending == "crash" {
				crashes++
			}
		}
		if m.Seats[0].Place == m.Seats[1].Place {
			ties++
		}
		if m.Rotation == 1 {
			assert.Equal(t, prev.Block, m.Block)
			assert.Equal(t, []int64{prev.Seats[1].Bot, prev.Seats[0].Bot}, []int64{m.Seats[0].Bot, m.Seats[1].Bot})
		}
		prev = m
		return nil
	}))
	assert.Equal(t, 1000, games)
	assert.Equal(t, 5, crashes, "the second game of blocks 97, 194... 485")
	assert.Positive(t, ties)
	open, err := st.OpenBlocks(ctx, Game)
	require.NoError(t, err)
	assert.Empty(t, open, "every block is complete")
}

// TestASyntheticHistoryInPostgres: the server's history reads as the SQLite one
// does, and the ladder goes on recording after it.
func TestASyntheticHistoryInPostgres(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	url := pgtest.URL(t)
	require.NoError(t, WritePostgres(ctx, url, t.TempDir(), History{Games: 1000, Bots: 7}))
	st, err := store.OpenPostgres(ctx, url, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	var pg []store.Match
	require.NoError(t, st.Matches(ctx, Game, func(m store.Match) error { pg = append(pg, m); return nil }))
	path := filepath.Join(t.TempDir(), "ladder.db")
	require.NoError(t, WriteSQLite(ctx, path, History{Games: 1000, Bots: 7}))
	sq, err := store.Open(path)
	require.NoError(t, err)
	defer sq.Close()
	var lite []store.Match
	require.NoError(t, sq.Matches(ctx, Game, func(m store.Match) error { lite = append(lite, m); return nil }))
	require.Len(t, pg, 1000)
	for i := range pg {
		assert.Equal(t, lite[i].Seats, pg[i].Seats, "game %d", i+1)
	}
	bots, err := st.Bots(ctx, false)
	require.NoError(t, err)
	blk, err := st.NewBlock(ctx, store.Block{Game: Game, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 1})
	require.NoError(t, err)
	m, err := st.RecordMatch(ctx, store.Match{Block: blk.ID, Game: Game, Seats: []store.Seat{{Bot: bots[0].ID, Ending: "ok"}, {Bot: bots[1].ID, Place: 1, Ending: "ok"}}})
	require.NoError(t, err)
	assert.EqualValues(t, 1001, m.ID)
}
