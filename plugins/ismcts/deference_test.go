package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeferPlaysTheHeuristicsCloseMove: two searches of the same seed grow the same
// trees (deferring draws no random numbers); with defer=1 every mean is close
// enough, so the search answers the heuristic's move wherever the heuristic's move was
// visited at least a tenth as often as the search's own, and the search's own
// elsewhere; without it the answers differ from the heuristic's somewhere.
func TestDeferPlaysTheHeuristicsCloseMove(t *testing.T) {
	h := heuristic.New()
	plain, err := NewSearch("kardinal", nil, 3, Config{Iterations: 600})
	require.NoError(t, err)
	de, err := NewSearch("kardinal", nil, 3, Config{Iterations: 600, Defer: 1})
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
		got, err := de.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		hc := h.Choose(view, events, opts)
		want := own
		if v[hc] > 0 && deferShare*v[hc] >= v[own] {
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
	assert.Positive(t, differs, "the search never left the heuristic's move: nothing to defer from")
	assert.Positive(t, switched, "deferring never played the heuristic's move")
	off, err := ParseSettings("defer=0")
	require.NoError(t, err)
	assert.Negative(t, off.Defer)
	on, err := ParseSettings("defer=0.01")
	require.NoError(t, err)
	assert.Equal(t, 0.01, on.Defer)
	for _, bad := range []string{"defer=-0.1", "defer=1.5", "defer=x"} {
		_, err = ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}
