package kardinal

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
)

// TestProjectedScoresAreTheFinalScoresAtTheEnd: projected just before the final
// scoring of a game that ends after its interim scoring (K8, K10), the scores are the
// result's.
func TestProjectedScoresAreTheFinalScoresAtTheEnd(t *testing.T) {
	checked := 0
	for seed := uint64(0); seed < 20 && checked < 5; seed++ {
		g, err := New(seed, 4)
		require.NoError(t, err)
		r := engine.NewRand(seed)
		for !g.Terminal() {
			before := g.Clone().(*Game)
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
			if g.Terminal() && !g.adjudicated && before.exhaustions == g.exhaustions && before.exhaustions >= 1 {
				proj := make([]int, 4)
				before.ProjectedScores(proj)
				require.Equal(t, g.Result().Score, proj, "seed %d", seed)
				g.ProjectedScores(proj) // nothing is left to score once it is over
				require.Equal(t, g.Result().Score, proj, "seed %d, after the end", seed)
				checked++
			}
		}
	}
	require.Positive(t, checked)
}

// TestHandIsTheSeatsOwnView: Hand is, for every seat at every position of a random
// game, the hand its own view shows.
func TestHandIsTheSeatsOwnView(t *testing.T) {
	g, err := New(3, MaxPlayers)
	require.NoError(t, err)
	r := engine.NewRand(3)
	for !g.Terminal() {
		for s := range MaxPlayers {
			require.Equal(t, g.SeatView(s).Hand, g.Hand(s), "seat %d", s)
		}
		require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
	}
}
