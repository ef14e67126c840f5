package ladder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
)

// loadedStandings is how standings were computed before they streamed: every game of
// the game loaded into memory first, the rated versions taken from the loaded games.
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
	b := newTableBuilder(game, bots, played)
	for _, m := range all {
		require.NoError(t, b.add(m))
	}
	tab, err := b.table(bots, sus, opt)
	require.NoError(t, err)
	return tab
}

func TestStreamedStandingsEqualTheLoadedOnes(t *testing.T) {
	st := newLadder(t, "a", "b", "c", "d", "random", "hang")
	p := &fakePlayer{strength: map[string]float64{"a": 0, "b": 100, "c": 200, "d": 300, "random": -100}, hangs: "hang"}
	_, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 3, Matches: 150, Seed: 4})
	require.NoError(t, err)
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
	}
}
