package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFallbackPlaysTheHeuristicsCloseMove: two searches of the same seed grow the same
// trees (the fallback draws no random numbers); with fallback=1 every mean is close
// enough, so the search answers the heuristic's move wherever the heuristic's move was
// visited at least a tenth as often as the search's own, and the search's own
// elsewhere; without it the answers differ from the heuristic's somewhere.
func TestFallbackPlaysTheHeuristicsCloseMove(t *testing.T) {
	h := heuristic.New()
	plain, err := NewSearch("kardinal", nil, 3, Config{Iterations: 600})
	require.NoError(t, err)
	fb, err := NewSearch("kardinal", nil, 3, Config{Iterations: 600, Fallback: 1})
	require.NoError(t, err)
	differs, switched := 0, 0
	for d := 20; d < 60; d += 4 {
		g := midGame(t, "kardinal", 5, d)
		seat, opts := g.ToMove(), g.Options()
		view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
		own, err := plain.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		v, r := make([]int32, len(opts)), make([]float64, len(opts))
		plain.tree.tally(opts, v, r)
		got, err := fb.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		hc := h.Choose(view, events, opts)
		want := own
		if v[hc] > 0 && fallbackShare*v[hc] >= v[own] {
			want = hc
		}
		assert.Equal(t, want, got, "decision %d", d)
		if own != hc {
			differs++
			if got == hc {
				switched++
			}
		}
	}
	assert.Positive(t, differs, "the search never left the heuristic's move: nothing to fall back from")
	assert.Positive(t, switched, "the fallback never played the heuristic's move")
	off, err := ParseSettings("fallback=0")
	require.NoError(t, err)
	assert.Negative(t, off.Fallback)
	on, err := ParseSettings("fallback=0.01")
	require.NoError(t, err)
	assert.Equal(t, 0.01, on.Fallback)
	for _, bad := range []string{"fallback=-0.1", "fallback=1.5", "fallback=x"} {
		_, err = ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}
