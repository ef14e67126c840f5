package queue

import (
	"context"
	"io"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
	"github.com/arena-games/arena/ladder/store/storetest"
)

// streamed is a store that counts the games it streams.
type streamed struct {
	store.Store
	games atomic.Int64
}

func (s *streamed) count(fn func(store.Match) error) func(store.Match) error {
	return func(m store.Match) error { s.games.Add(1); return fn(m) }
}

func (s *streamed) Matches(ctx context.Context, game string, fn func(store.Match) error) error {
	return s.Store.Matches(ctx, game, s.count(fn))
}

func (s *streamed) MatchesAfter(ctx context.Context, game string, after int64, fn func(store.Match) error) error {
	return s.Store.MatchesAfter(ctx, game, after, s.count(fn))
}

// coordinatorOver is a coordinator of a synthetic PostgreSQL history of games, whose
// scheduler reads through a counting store.
func coordinatorOver(tb testing.TB, games int) (*Coordinator, *store.Postgres, *streamed) {
	tb.Helper()
	ctx := context.Background()
	url := pgtest.URL(tb)
	require.NoError(tb, storetest.WritePostgres(ctx, url, tb.TempDir(), storetest.History{Games: games, Bots: 20}))
	st, err := store.OpenPostgres(ctx, url, tb.TempDir())
	require.NoError(tb, err)
	tb.Cleanup(func() { st.Close() })
	pool, err := Connect(ctx, url)
	require.NoError(tb, err)
	tb.Cleanup(pool.Close)
	counted := &streamed{Store: st}
	co, err := NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: 4, Rescan: time.Hour, Log: io.Discard,
		Schedule: ladder.RunConfig{Store: counted, Game: storetest.Game, Players: 2, Seed: 1}})
	require.NoError(tb, err)
	return co, st, counted
}

// TestARescanReadsOnlyTheNewGames: the coordinator reads the history at its first
// tick, and a rescan after two more games reads those two.
func TestARescanReadsOnlyTheNewGames(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	co, st, counted := coordinatorOver(t, 2000)
	require.NoError(t, co.Fill(ctx))
	require.EqualValues(t, 2000, counted.games.Load())

	open, err := st.OpenBlocks(ctx, storetest.Game)
	require.NoError(t, err)
	require.NotEmpty(t, open)
	b := open[0]
	for rot := range 2 {
		_, err := st.RecordMatch(ctx, store.Match{Block: b.ID, Rotation: rot, Game: b.Game, Finished: time.Now(),
			Seats: []store.Seat{{Bot: b.Bots[0], Place: rot, Ending: "ok"}, {Bot: b.Bots[1], Place: 1 - rot, Ending: "ok"}}})
		require.NoError(t, err)
	}
	// A block no tick made or saw open (left by a coordinator before this one) is
	// listed all the same.
	orphan, err := st.NewBlock(ctx, store.Block{Game: b.Game, Bots: b.Bots, Rotations: 2})
	require.NoError(t, err)
	co.Rescan()
	require.NoError(t, co.Fill(ctx))
	assert.EqualValues(t, 2002, counted.games.Load(), "the rescan read the two new games alone")
	assert.Contains(t, jobBlocks(t, co.pool, "available"), orphan.ID)
	want, err := st.OpenBlocks(ctx, storetest.Game)
	require.NoError(t, err)
	got, err := co.openBlocks(ctx)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the open blocks a tick lists are the open blocks")
	for _, o := range got {
		assert.NotEqual(t, b.ID, o.ID, "the block completed since the last tick is not open")
	}
}

// BenchmarkCoordinatorTickAMillionGames: a coordinator tick that rescans (the costlier
// kind: it catches the scheduler up and tops the queue up) over a ladder of a million
// games. Fails when a tick reads a game or takes over 100 ms at the median (a tenth of
// the tick's period).
func BenchmarkCoordinatorTickAMillionGames(b *testing.B) {
	pgtest.Skip(b)
	ctx := context.Background()
	start := time.Now()
	co, _, counted := coordinatorOver(b, 1_000_000) // once: the parent of a sub-benchmark runs once
	wrote := time.Since(start)
	start = time.Now()
	require.NoError(b, co.Fill(ctx))
	b.Logf("history written in %v; first tick (reads it) %v", wrote.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	b.Run("rescan", func(b *testing.B) {
		read := counted.games.Load()
		took := make([]time.Duration, 0, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			t0 := time.Now()
			co.Rescan()
			require.NoError(b, co.Fill(ctx))
			took = append(took, time.Since(t0))
		}
		b.StopTimer()
		slices.Sort(took)
		median := took[len(took)/2]
		b.ReportMetric(float64(median.Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "slowest-ms")
		if n := counted.games.Load() - read; n != 0 {
			b.Fatalf("the ticks read %d games", n)
		}
		if median > 100*time.Millisecond {
			b.Fatalf("the median tick took %v, over 100 ms", median)
		}
	})
}
