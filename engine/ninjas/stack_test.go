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

// TestSwapHandExchangesWithThePile: SwapHand gives the seat the hand asked, keeps the
// cards of hand and pile together (only which are where changes), touches no other
// seat, and leaves the game unchanged, reporting false, for a hand of another size
// or one the pile cannot make.
func TestSwapHandExchangesWithThePile(t *testing.T) {
	g, err := New(7, 2)
	require.NoError(t, err)
	r := engine.NewRand(1)
	together := func() (n [NumKinds]int) {
		for _, k := range g.pile[:g.pileN] {
			n[k]++
		}
		for k, c := range g.hands[1] {
			n[k] += int(c)
		}
		return n
	}
	before, other := together(), g.hands[0]
	var want [NumKinds]uint8 // the hand's size from the pile's top cards
	for i := 0; i < handSize(&g.hands[1]); i++ {
		want[g.pile[g.pileN-1-i]]++
	}
	require.True(t, g.SwapHand(1, want, &r))
	assert.Equal(t, want, g.hands[1])
	assert.Equal(t, before, together(), "the cards of hand and pile")
	assert.Equal(t, other, g.hands[0], "the other seat's hand")

	saved := *g
	bigger := want
	bigger[Peasant]++
	assert.False(t, g.SwapHand(1, bigger, &r), "a hand of another size")
	var dragons [NumKinds]uint8
	dragons[Dragon] = uint8(handSize(&want))
	for i := 0; i < g.pileN; i++ {
		if g.pile[i] == Dragon {
			g.pile[i] = Peasant
		}
	}
	saved.pile = g.pile
	assert.False(t, g.SwapHand(1, dragons, &r), "no Dragon in the pile")
	assert.Equal(t, saved.pile, g.pile)
	assert.Equal(t, saved.hands, g.hands)
	assert.False(t, g.SwapHand(2, want, &r), "no such seat")
}
