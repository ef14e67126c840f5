package ismcts

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// versus plays deals of game in-process, ismcts with cfg in one seat of every rotation
// and the heuristic in the others, and returns ismcts's mean match score.
func versus(t testing.TB, game string, players, deals int, cfg Config) float64 {
	total, n := 0.0, 0
	reward := make([]float64, players)
	for d := 0; d < deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := engine.New(game, uint64(1000+d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = heuristic.New()
			}
			p, err := New(game, uint64(d*10+seat), cfg)
			require.NoError(t, err)
			seats[seat] = p
			require.NoError(t, engine.PlayOut(g, seats))
			require.Zero(t, p.Errors, "the search failed on some decisions")
			MatchScore(g, reward)
			total += reward[seat]
			n++
		}
	}
	return total / float64(n)
}

func TestPlaysEveryGame(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
	}{{"ivanhoe", 2}, {"ivanhoe", 5}} {
		t.Run(fmt.Sprintf("%s-%d", tc.game, tc.players), func(t *testing.T) {
			score := versus(t, tc.game, tc.players, 2, Config{Iterations: 50})
			t.Logf("score %.3f", score)
		})
	}
}
