package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/storetest"
)

// scans is a SQLite ladder that counts the games it streams.
type scans struct {
	*store.SQLite
	games atomic.Int64
}

func (s *scans) Matches(ctx context.Context, game string, fn func(store.Match) error) error {
	return s.SQLite.Matches(ctx, game, func(m store.Match) error { s.games.Add(1); return fn(m) })
}

func (s *scans) MatchesAfter(ctx context.Context, game string, after int64, fn func(store.Match) error) error {
	return s.SQLite.MatchesAfter(ctx, game, after, func(m store.Match) error { s.games.Add(1); return fn(m) })
}

// TestPagesReadNoHistory: over a synthetic ladder, once the service has caught up, a
// bot's page (its record, rating curve and latest forfeits) and a game found by its ID
// stream no recorded game.
func TestPagesReadNoHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ladder.db")
	require.NoError(t, storetest.WriteSQLite(ctx, path, storetest.History{Games: 4000, Bots: 20}))
	sq, err := store.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { sq.Close() })
	st := &scans{SQLite: sq}
	svc, err := service.New(service.Config{Store: st, Authors: st, Game: storetest.Game, Log: slog.New(slog.DiscardHandler),
		Submit: func(context.Context, string, string) (store.Bot, error) {
			return store.Bot{}, fmt.Errorf("no submissions here")
		}})
	require.NoError(t, err)
	require.NoError(t, svc.Refit(ctx))
	ts := httptest.NewServer(svc.Server().Handler)
	t.Cleanup(ts.Close)

	crash, err := sq.Match(ctx, 194) // block 97's second game: a seat crashed
	require.NoError(t, err)
	crashed := crash.Seats[1].Bot
	require.Equal(t, "crash", crash.Seats[1].Ending)
	before := st.games.Load()
	page := do(t, "GET", fmt.Sprintf("%s/bots/%d", ts.URL, crashed), nil, nil)
	require.Equal(t, 200, page.code, page.body)
	assert.Contains(t, page.body, "<polygon", "the rating's band over time")
	assert.Contains(t, page.body, `href="/games/194?seat=1"`, "the latest forfeits list the crash")
	found := do(t, "GET", ts.URL+"/games/194", nil, nil) // found: the synthetic games have no replay
	assert.Contains(t, found.body, "game 194 has no replay")
	missing := do(t, "GET", ts.URL+"/games/4001", nil, nil)
	assert.Equal(t, 404, missing.code)
	assert.Contains(t, missing.body, "no game 4001")
	assert.Equal(t, before, st.games.Load(), "no game was streamed")

	// A page of games reads back from the newest in growing windows, not every game.
	before = st.games.Load()
	newest := do(t, "GET", ts.URL+"/api/games?limit=3", nil, nil)
	require.Equal(t, 200, newest.code, newest.body)
	assert.Regexp(t, `^\{"games":\[\{"id":4000,.*\{"id":3999,.*\{"id":3998,`, newest.body)
	assert.Less(t, st.games.Load()-before, int64(100))
	before = st.games.Load()
	crashes := do(t, "GET", ts.URL+"/api/games?ending=crash&limit=3&before=3880", nil, nil)
	require.Equal(t, 200, crashes.code, crashes.body)
	assert.Regexp(t, `^\{"games":\[\{"id":3686,.*\{"id":3492,.*\{"id":3298,`, crashes.body, "every 194th game")
	assert.Less(t, st.games.Load()-before, int64(3000), "not the 3,880 games before")
}
