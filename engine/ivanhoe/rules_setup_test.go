package ivanhoe

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestR1_SeededDealerDealsEightAndLeftOfDealerStarts(t *testing.T) {
	dealers := map[int]bool{}
	for seed := uint64(0); seed < 60; seed++ {
		g, err := New(seed, 4)
		require.NoError(t, err)
		dealers[g.dealer] = true
		again, _ := New(seed, 4)
		require.Equal(t, g.dealer, again.dealer, "the dealer comes from the seed")
		// The first starter is left of the dealer unless R7 passed the start on.
		var first engine.Event
		for _, e := range g.log {
			if EventKind(e.Kind) == EvStarter {
				first = e
				break
			}
		}
		assert.Equal(t, (g.dealer+1)%4, int(first.Seat))
		for s := 0; s < 4; s++ {
			want := HandSize
			if s == g.starter {
				want++ // the starter has drawn
			}
			if countKind(g, EvRevealHand) == 0 {
				assert.Equal(t, want, g.handSize[s], "seed %d seat %d", seed, s)
			}
		}
	}
	assert.Len(t, dealers, 4, "every seat deals for some seed")
}

func TestR1_TokensNeededToWinTheGame(t *testing.T) {
	for _, tc := range []struct {
		players, held int
		over          bool
	}{{2, 3, false}, {2, 4, true}, {3, 4, true}, {4, 3, true}, {5, 3, true}, {4, 2, false}} {
		g := fixture(t, tc.players)
		for col := Colour(0); col < Colour(tc.held); col++ {
			g.tokens[1][col] = true
			g.pool[col]--
		}
		turnOf(g, 0, Green) // seat 1 holds the first `held` colours and wins green
		lay(t, g, 0, Green1)
		lay(t, g, 1, Green1, Green1)
		for s := 2; s < tc.players; s++ {
			g.in[s] = false
		}
		do(t, g, option(Withdraw))
		assert.Equal(t, tc.over, g.Terminal(), "%d players, %d tokens + green", tc.players, tc.held)
		if tc.over {
			assert.Equal(t, 1, g.Winner())
		}
	}
}

func TestR2_EveryTurnStartsWithADraw(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	deal(t, g, 0, Red4)
	g.played = 1
	stack(t, g, Blue2)
	do(t, g, option(EndTurn))
	assert.Equal(t, 1, int(g.hands[1][Blue2]), "seat 1 drew the top card")
	assert.Equal(t, 1, g.handSize[1])
}

func TestR2_EmptyDrawPileIsReshuffledFromTheDiscards(t *testing.T) {
	g := fixture(t, 2)
	for g.drawN > 0 { // everything to the discard pile but one card in a hand
		g.drawN--
		g.toDiscard(g.draw[g.drawN])
	}
	g.discard[Red3]--
	g.discardN--
	g.toHand(0, Red3)
	g.startTurn(1)
	assert.Equal(t, 1, countKind(g, EvReshuffle))
	assert.Equal(t, 1, g.handSize[1])
	assert.Equal(t, DeckSize-2, g.drawN)
	assert.Equal(t, 0, g.discardN)
	require.NoError(t, checkInvariants(g))

	// Both piles empty: the draw is skipped.
	h := fixture(t, 2)
	for h.drawN > 0 {
		h.drawN--
		h.toHand(0, h.draw[h.drawN])
	}
	h.startTurn(1)
	assert.Equal(t, 0, h.handSize[1])
	assert.Equal(t, 0, countKind(h, EvDrawCard))
}

func TestR3_EndTurnNeedsACardPlayedAndAStrictLead(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red4)
	lay(t, g, 1, Red3)
	deal(t, g, 0, Red3, Unhorse)
	assert.False(t, has(g, option(EndTurn)), "leading without playing a card this turn is not enough")
	lay(t, g, 2, Red4)
	do(t, g, option(PlayCard, int(Red3)))
	assert.True(t, has(g, option(EndTurn)), "7 beats 3 and 4")

	h := fixture(t, 2)
	turnOf(h, 0, Red)
	lay(t, h, 1, Red4)
	deal(t, h, 0, Red4)
	do(t, h, option(PlayCard, int(Red4)))
	assert.False(t, has(h, option(EndTurn)), "a tie is not a lead")
	assert.True(t, has(h, option(Withdraw)))

	// An action card counts as a card played.
	k := fixture(t, 2)
	turnOf(k, 0, Red)
	lay(t, k, 0, Red4)
	lay(t, k, 1, Red3)
	deal(t, k, 0, Shield)
	do(t, k, action(Shield))
	assert.True(t, has(k, option(EndTurn)))
}

func TestR4_WithdrawIsLegalWithoutPlaying(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 1, Blue)
	lay(t, g, 0, Blue3)
	deal(t, g, 1, Blue4)
	assert.True(t, has(g, option(Withdraw)))
	do(t, g, option(Withdraw))
	assert.False(t, g.in[1])
	assert.Equal(t, 2, g.toMove, "the turn passes")
	assert.Equal(t, 1, countKind(g, EvDraw), "seat 2 drew, nobody else")
}

func TestR5_LastPlayerLeftWinsOutsideTheirTurn(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Yellow)
	lay(t, g, 0, Yellow3)
	g.in[1] = false
	do(t, g, option(Withdraw))
	assert.True(t, g.tokens[2][Yellow], "seat 2 wins though it never played")
	assert.Equal(t, 2, firstSeatOf(g, EvStarter), "and is the first to try starting the next tournament")
}

func firstSeatOf(g *Game, k EventKind) int {
	for _, e := range g.log {
		if EventKind(e.Kind) == k {
			return int(e.Seat)
		}
	}
	return -1
}
