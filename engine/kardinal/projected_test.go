package kardinal

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
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

// TestLead: a seat's points less the mean of the others', over the first players seats
// only.
func TestLead(t *testing.T) {
	pts := [MaxPlayers]int{5, 2, 4, 9, 9}
	if got := Lead(pts, 0, 3); got != 2 {
		t.Errorf("Lead of seat 0 of 3 = %v, want 5 - (2+4)/2 = 2", got)
	}
	if got := Lead(pts, 1, 4); got != -4 {
		t.Errorf("Lead of seat 1 of 4 = %v, want 2 - (5+4+9)/3 = -4", got)
	}
}
