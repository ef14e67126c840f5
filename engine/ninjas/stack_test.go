package ninjas

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStackPilePutsTheCardAtItsDepth: StackPile moves a card of the kind asked to the
// depth asked, keeps the pile's cards (only their order changes), leaves a depth
// stacked before alone, and reports false for a kind the pile lacks or a depth past
// its bottom.
func TestStackPilePutsTheCardAtItsDepth(t *testing.T) {
	g, err := New(7, 2)
	require.NoError(t, err)
	r := engine.NewRand(1)
	var before [NumKinds]int
	for _, k := range g.pile[:g.pileN] {
		before[k]++
	}
	top := g.pile[g.pileN-1]
	require.True(t, g.StackPile(0, top, nil, &r))
	require.True(t, g.StackPile(3, Dragon, []int{0}, &r))
	require.True(t, g.StackPile(4, top, []int{0, 3}, &r))
	assert.Equal(t, top, g.pile[g.pileN-1])
	assert.Equal(t, Dragon, g.pile[g.pileN-4])
	assert.Equal(t, top, g.pile[g.pileN-5])
	var after [NumKinds]int
	for _, k := range g.pile[:g.pileN] {
		after[k]++
	}
	assert.Equal(t, before, after, "the pile's cards")
	assert.False(t, g.StackPile(g.pileN, top, nil, &r), "below the bottom")
	for i := 0; i < g.pileN; i++ {
		if g.pile[i] == Jester {
			g.pile[i] = Peasant
		}
	}
	assert.False(t, g.StackPile(1, Jester, nil, &r), "no Jester in the pile")
}
