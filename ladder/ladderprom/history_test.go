package ladderprom

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/storetest"
)

// reads is a store that counts the calls that read the database and the games they
// streamed.
type reads struct {
	store.Store
	calls, games atomic.Int64
}

func (r *reads) count(fn func(store.Match) error) func(store.Match) error {
	r.calls.Add(1)
	return func(m store.Match) error { r.games.Add(1); return fn(m) }
}

func (r *reads) Matches(ctx context.Context, game string, fn func(store.Match) error) error {
	return r.Store.Matches(ctx, game, r.count(fn))
}

func (r *reads) MatchesAfter(ctx context.Context, game string, after int64, fn func(store.Match) error) error {
	return r.Store.MatchesAfter(ctx, game, after, r.count(fn))
}

func (r *reads) Match(ctx context.Context, id int64) (store.Match, error) {
	r.calls.Add(1)
	return r.Store.Match(ctx, id)
}

func (r *reads) Bots(ctx context.Context, all bool) ([]store.Bot, error) {
	r.calls.Add(1)
	return r.Store.Bots(ctx, all)
}

func (r *reads) Suspensions(ctx context.Context) ([]store.Suspension, error) {
	r.calls.Add(1)
	return r.Store.Suspensions(ctx)
}

// synthetic opens a synthetic history of games written to a real SQLite file.
func synthetic(tb testing.TB, games int) *store.SQLite {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "ladder.db")
	require.NoError(tb, storetest.WriteSQLite(context.Background(), path, storetest.History{Games: games, Bots: 20}))
	st, err := store.Open(path)
	require.NoError(tb, err)
	tb.Cleanup(func() { st.Close() })
	return st
}

// fullRead is what the exporter used to read at every scrape: per version its games,
// forfeits and points, and the ladder's games, straight from every recorded game.
func fullRead(t *testing.T, st store.Store) (perBot map[string][3]float64, games int) {
	t.Helper()
	bots, err := st.Bots(context.Background(), true)
	require.NoError(t, err)
	name := map[int64]string{}
	for _, b := range bots {
		name[b.ID] = b.Name
	}
	perBot = map[string][3]float64{}
	require.NoError(t, st.Matches(context.Background(), storetest.Game, func(m store.Match) error {
		games++
		places := []int{m.Seats[0].Place, m.Seats[1].Place}
		for i, s := range m.Seats {
			v := perBot[name[s.Bot]]
			v[0]++
			if s.Ending != "ok" {
				v[1]++
			}
			v[2] += ladder.Points(places, i)
			perBot[name[s.Bot]] = v
		}
		return nil
	}))
	return perBot, games
}

// TestAScrapeNeverReadsTheGames: over a synthetic history, once the exporter has read
// it, a scrape answers with the full read's totals and the standings' ratings while
// the database is closed under it and without a single store call; games recorded
// afterwards are caught up by reading those games alone.
func TestAScrapeNeverReadsTheGames(t *testing.T) {
	ctx := context.Background()
	sq := synthetic(t, 4000)
	st := &reads{Store: sq}
	e, _ := New(st, storetest.Game, "club")
	require.NoError(t, e.Refit(ctx))
	require.EqualValues(t, 4000, st.games.Load(), "the history is read once")

	perBot, games := fullRead(t, sq)
	tables, err := ladder.Standings(ctx, sq, storetest.Game, ladder.StandingsOptions{Retired: true})
	require.NoError(t, err)
	before := st.calls.Load()
	got := gathered(t, e)
	assert.Equal(t, before, st.calls.Load(), "a scrape makes no store call")
	checkAgainst(t, got, perBot, games, tables)

	// More games, recorded as a ladder records them: the next refresh reads them alone.
	bots, err := sq.Bots(ctx, false)
	require.NoError(t, err)
	blk, err := sq.NewBlock(ctx, store.Block{Game: storetest.Game, Bots: []int64{bots[0].ID, bots[5].ID}, Rotations: 2})
	require.NoError(t, err)
	for rot := range 2 {
		_, err := sq.RecordMatch(ctx, store.Match{Block: blk.ID, Rotation: rot, Game: storetest.Game, Finished: time.Now(),
			Seats: []store.Seat{{Bot: bots[0].ID, Place: rot, Ending: "timeout"}, {Bot: bots[5].ID, Place: 1 - rot, Ending: "ok"}}})
		require.NoError(t, err)
	}
	read := st.games.Load()
	require.NoError(t, e.Refit(ctx))
	assert.EqualValues(t, 2, st.games.Load()-read, "the refresh read the two new games, no other")
	perBot, games = fullRead(t, sq)
	tables, err = ladder.Standings(ctx, sq, storetest.Game, ladder.StandingsOptions{Retired: true})
	require.NoError(t, err)

	require.NoError(t, sq.Close()) // any read now fails, and would be counted
	got = gathered(t, e)
	checkAgainst(t, got, perBot, games, tables)
	assert.Zero(t, got[`arena_ladder_store_errors_total{ladder="club",op="read"}`], "nothing was read from the closed database")
}

// checkAgainst compares scraped series with a full read's totals and the standings.
func checkAgainst(t *testing.T, got map[string]float64, perBot map[string][3]float64, games int, tables []ladder.Table) {
	t.Helper()
	key := func(family, bot string) string {
		return fmt.Sprintf(`%s{bot=%q,game="ivanhoe",ladder="club",version="1"}`, family, bot)
	}
	require.Len(t, perBot, 20)
	for bot, v := range perBot {
		assert.Equal(t, v[0], got[key("arena_ladder_bot_games_total", bot)], bot)
		assert.Equal(t, v[1], got[key("arena_ladder_bot_forfeits_total", bot)], bot)
		assert.Equal(t, v[2], got[key("arena_ladder_bot_score_total", bot)], bot)
	}
	assert.Equal(t, float64(games), got[`arena_ladder_games_total{game="ivanhoe",ladder="club"}`])
	require.Len(t, tables, 1)
	for _, s := range tables[0].Standings {
		require.False(t, math.IsNaN(s.Elo), s.Bot.Name)
		official := fmt.Sprintf(`arena_ladder_rating_elo{bot=%q,game="ivanhoe",kind="official",ladder="club",version="1"}`, s.Bot.Name)
		assert.Equal(t, s.Elo, got[official], s.Bot.Name)
		assert.Equal(t, s.High, got[key("arena_ladder_rating_elo_upper", s.Bot.Name)], s.Bot.Name)
	}
}

// million is a ladder of a million games and an exporter that has read it, made once
// per test binary for the benchmarks that need it (writing it takes 30 to 60 s, the
// first read as long again on a loaded machine of two cores).
type million struct {
	dir  string
	st   *reads
	exp  *Exporter
	took string
}

// built is the million made, if a benchmark made it, for TestMain to remove.
var built *million

var millionOnce = sync.OnceValues(func() (*million, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "arena-million-")
	if err != nil {
		return nil, err
	}
	m := &million{dir: dir}
	built = m
	start := time.Now()
	path := filepath.Join(dir, "ladder.db")
	if err := storetest.WriteSQLite(ctx, path, storetest.History{Games: 1_000_000, Bots: 20}); err != nil {
		return m, err
	}
	wrote := time.Since(start)
	sq, err := store.Open(path)
	if err != nil {
		return m, err
	}
	m.st = &reads{Store: sq}
	m.exp, _ = New(m.st, storetest.Game, "club")
	start = time.Now()
	if err := m.exp.Refresh(ctx); err != nil {
		return m, err
	}
	read := time.Since(start)
	start = time.Now()
	if err := m.exp.Refit(ctx); err != nil {
		return m, err
	}
	runtime.GC()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	m.took = fmt.Sprintf("history written in %v, read once in %v, refitted in %v; heap %d MiB",
		wrote.Round(time.Millisecond), read.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), mem.HeapAlloc>>20)
	return m, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if mm := built; mm != nil {
		if mm.st != nil {
			mm.st.Close()
		}
		os.RemoveAll(mm.dir)
	}
	os.Exit(code)
}

// BenchmarkScrapeAMillionGames: one scrape of a ladder with a million recorded games,
// through the handler the processes serve, once the exporter has read the history.
// Fails when a scrape makes a store call, or when the median scrape takes 100 ms (the
// goal of issue #31); the slowest is reported beside it.
func BenchmarkScrapeAMillionGames(b *testing.B) {
	m, err := millionOnce()
	require.NoError(b, err)
	b.Log(m.took)
	h := promhttp.HandlerFor(m.exp.Gatherer(), promhttp.HandlerOpts{MaxRequestsInFlight: metrics.MaxScrapes, Timeout: metrics.ScrapeTimeout})
	calls := m.st.calls.Load()
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		took = append(took, time.Since(t0))
		if w.Code != http.StatusOK {
			b.Fatalf("scrape answered %d", w.Code)
		}
	}
	b.StopTimer()
	slices.Sort(took)
	median := took[len(took)/2]
	b.ReportMetric(float64(median.Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "slowest-ms")
	if n := m.st.calls.Load() - calls; n != 0 {
		b.Fatalf("the scrapes made %d store calls", n)
	}
	if median > 100*time.Millisecond {
		b.Fatalf("the median scrape took %v, over 100 ms", median)
	}
}
