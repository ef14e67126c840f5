package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPickSumsTheTreesVotes: over the trees' summed root statistics, pick plays the
// most visited option, or with Config.Final the best mean among those visited at
// least half as often as the most visited, however well a less visited one did.
func TestPickSumsTheTreesVotes(t *testing.T) {
	visits := []int32{100, 80, 12, 9}
	reward := []float64{50, 60, 11, 8.5} // means 0.5, 0.75, 0.917, 0.944
	assert.Equal(t, 0, pick(visits, reward, false))
	assert.Equal(t, 1, pick(visits, reward, true), "the best mean among those visited at least 50 times")
	assert.Equal(t, -1, pick([]int32{0, 0}, []float64{0, 0}, true))
}

// TestTreesShareTheIterations: with trees=3 a decision grows three trees, the
// iterations dealt among them in turn, and plays an option the trees' summed root
// visits favour; with one tree and final=value it still plays a searched option.
func TestTreesShareTheIterations(t *testing.T) {
	g := midGame(t, "ninjas", 2, 10)
	self := g.ToMove()
	view, events := g.View(self), engine.EventsFor(nil, g.Log(), self, 0)
	// warm=0: a warm node's virtual visits would count among the root's (warm.go).
	for _, settings := range []string{"iterations=300,trees=3,warm=0", "iterations=300,trees=3,final=value,warm=0", "iterations=300,final=value,warm=0"} {
		cfg, err := ParseSettings(settings)
		require.NoError(t, err)
		s, err := NewSearch("ninjas", nil, 1, cfg)
		require.NoError(t, err)
		i, err := s.Choose(view, events, g.Options(), time.Time{})
		require.NoError(t, err, settings)
		require.Len(t, s.forest, cfg.Trees-min(cfg.Trees, 1), settings)
		visits := make([]int32, len(g.Options()))
		for k := 0; k <= len(s.forest); k++ {
			one := make([]int32, len(g.Options()))
			s.treeAt(k).tally(g.Options(), one, make([]float64, len(one)))
			assert.EqualValues(t, 300/(len(s.forest)+1), sum(one), "%s: tree %d's root visits", settings, k)
			for j := range one {
				visits[j] += one[j]
			}
		}
		assert.Positive(t, visits[i], settings)
		if cfg.Final == 0 {
			assert.Equal(t, pick(visits, make([]float64, len(visits)), false), i, settings)
		}
	}
}

func sum(xs []int32) (n int32) {
	for _, x := range xs {
		n += x
	}
	return n
}
