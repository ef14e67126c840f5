package ismcts

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBeliefPlacesMoreCardsRight: at the same two-player Ninjas decisions, with the
// same moves to replay, a kept replay whose past was dealt a hand held from the last
// decision's kept replays (belief=64) places more of the other seat's cards right
// than one whose past was sampled afresh, as Infer alone does; each kept replay shows
// the seat exactly its present view.
func TestBeliefPlacesMoreCardsRight(t *testing.T) {
	cfg, err := ParseSettings("iterations=200,infer=8,model=ucb,belief=64")
	require.NoError(t, err)
	s, err := NewSearch("ninjas", nil, 3, cfg)
	require.NoError(t, err)
	var right, kept [2]float64 // [0] fresh pasts, [1] believed
	inferringDecisions(t, s, 2, 12, func(g engine.Game, view engine.View, events []engine.Event) bool {
		s.belief.turn(view, true)
		if len(s.belief.held) == 0 {
			return true
		}
		for k := 0; k < 200; k++ {
			y, err := s.sampler.Sample(nil, &s.past.view, s.pastEvents, &s.rnd)
			if err != nil { // the cards proven held do not fit: Infer gives up here too
				return true
			}
			if k%2 == 1 {
				s.believe(y)
			}
			if s.stack(y) && s.replayed(y) {
				require.Equal(t, view, y.View(0), "a sample the seat could tell from the present")
				right[k%2] += handsMatch(g, y)
				kept[k%2]++
			}
		}
		return true
	})
	require.Positive(t, kept[0])
	require.Positive(t, kept[1])
	fresh, believed := right[0]/kept[0], right[1]/kept[1]
	t.Logf("cards of the other hand placed right by a kept replay: fresh past %.3f (%.0f kept), believed %.3f (%.0f kept)", fresh, kept[0], believed, kept[1])
	assert.Greater(t, believed, fresh+0.1)
}

// TestBeliefPlaysThroughTheWire: with belief=8 in every Ninjas player count, a whole
// game with views and events as a bot process decodes them: every decision is
// searched to its budget (the sampler accepts every believed past) and legal.
func TestBeliefPlaysThroughTheWire(t *testing.T) {
	for n := 2; n <= 6; n++ {
		playThroughTheWire(t, "ninjas", n, Config{Iterations: 50, Infer: 4, Drawn: 1, Belief: 8})
	}
}

// TestBeliefIsOffByDefault: no table carries hands unless asked; belief=N carries N,
// belief=0 none.
func TestBeliefIsOffByDefault(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6} {
		assert.Zero(t, Config{}.withTable("ninjas", n).Belief, "%d players", n)
	}
	on, err := ParseSettings("belief=64")
	require.NoError(t, err)
	assert.Equal(t, 64, on.Belief)
	off, err := ParseSettings("belief=0")
	require.NoError(t, err)
	assert.Negative(t, off.Belief)
	_, err = ParseSettings("belief=5000")
	assert.Error(t, err)
}
