package ismcts

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTempoCreditsTheSeatsStillToMove: in states of random five-player games, the
// tempo credit raises the reward of every seat with a turn still to come in the round
// (from the seat to move up to the start player) and lowers the others', and a
// finished game still gets its points alone.
func TestTempoCreditsTheSeatsStillToMove(t *testing.T) {
	plain, tempo := KardinalPotential(5), KardinalTempo(5, 4)
	a, b := make([]float64, 5), make([]float64, 5)
	compared := 0
	for seed := uint64(1); seed <= 10; seed++ {
		g, err := engine.New("kardinal", seed, 5)
		require.NoError(t, err)
		k, r := g.(*kardinal.Game), engine.NewRand(seed)
		for {
			plain(g, a)
			tempo(g, b)
			if g.Terminal() {
				assert.Equal(t, a, b, "a finished game")
				break
			}
			toCome := map[int]bool{}
			for s := k.ToMove(); s != k.Start(); s = (s + 1) % 5 {
				toCome[s] = true
			}
			for s := 0; s < 5 && len(toCome) > 0; s++ {
				if toCome[s] {
					assert.Greater(t, b[s], a[s], "seat %d has a turn to come", s)
				} else {
					assert.Less(t, b[s], a[s], "seat %d has moved this round", s)
				}
				compared++
			}
			require.NoError(t, g.Apply(KardinalPlacer(g, &r)))
		}
	}
	assert.Greater(t, compared, 1000)
}
