package ladder

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// loadedStandings is how standings were computed before the running aggregates:
// every game of the game loaded into memory first, the rated versions numbered in the
// order of the bots and counted in one pass.
func loadedStandings(t *testing.T, st store.Store, game string, opt StandingsOptions) Table {
	t.Helper()
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	sus, err := st.Suspensions(ctx)
	require.NoError(t, err)
	var all []store.Match
	require.NoError(t, st.Matches(ctx, game, func(m store.Match) error { all = append(all, m); return nil }))
	played := map[int64]bool{}
	for _, m := range all {
		for _, s := range m.Seats {
			played[s.Bot] = true
		}
	}
	r := tally.Rated{Game: game, Games: len(all)}
	index := map[int64]int{}
	for _, b := range bots {
		if played[b.ID] {
			index[b.ID] = len(r.IDs)
			r.IDs = append(r.IDs, b.ID)
		}
	}
	n := len(r.IDs)
	r.Results, r.Points = rating.NewResults(n), make([]float64, n)
	live := rating.NewLive(n, rating.DefaultK)
	for _, m := range all {
		seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
		for i, s := range m.Seats {
			seats[i], places[i] = index[s.Bot], s.Place
		}
		require.NoError(t, r.Results.Add(strconv.FormatInt(m.Block, 10), seats, places))
		require.NoError(t, live.Update(seats, places))
		for i := range seats {
			r.Points[seats[i]] += Points(places, i)
		}
	}
	r.Elo, r.Played = live.Elo, live.Games
	tab, err := tableOf(r, bots, sus, opt)
	require.NoError(t, err)
	return tab
}

func TestStreamedStandingsEqualTheLoadedOnes(t *testing.T) {
	st := newLadder(t, "a", "b", "c", "d", "random", "hang")
	// The running aggregates, opened before any game and refreshed after each run, rank
	// as a fresh read does.
	running := tally.New(st, "")
	require.NoError(t, running.Refresh(ctx))
	p := &fakePlayer{strength: map[string]float64{"a": 0, "b": 100, "c": 200, "d": 300, "random": -100}, hangs: "hang"}
	_, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 3, Matches: 150, Seed: 4})
	require.NoError(t, err)
	require.NoError(t, running.Refresh(ctx))
	_, err = st.RetireBot(ctx, "b")
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "e", SHA256: "sha-e", Builtin: "e"})
	require.NoError(t, err)
	p.strength["e"] = 150
	_, err = Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 3, Matches: 150, Seed: 5})
	require.NoError(t, err)

	for _, retired := range []bool{false, true} {
		opt := StandingsOptions{Resamples: 50, Retired: retired}
		tables, err := Standings(ctx, st, "ivanhoe", opt)
		require.NoError(t, err)
		require.Len(t, tables, 1)
		want := loadedStandings(t, st, "ivanhoe", StandingsOptions{Resamples: 50, Retired: retired, Prior: rating.DefaultPrior})
		assert.Equal(t, want, tables[0], "retired: %v", retired)
		assert.GreaterOrEqual(t, tables[0].Games, 300)
		require.NoError(t, running.Refresh(ctx))
		kept, err := StandingsOf(running, opt)
		require.NoError(t, err)
		assert.Equal(t, tables, kept, "retired: %v", retired)
	}
}
