package ivanhoe

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func colourOptions(g *Game) []Colour {
	var c []Colour
	for _, o := range g.Options() {
		if OptionKind(o.Kind) == ChooseColour {
			c = append(c, Colour(o.A))
		}
	}
	return c
}

func TestR6_StarterDrawsThenNamesAColourTheyCanBack(t *testing.T) {
	g := fixture(t, 3)
	deal(t, g, 0, Red3, Yellow2, Charge)
	stack(t, g, Blue2)
	g.startTournament(0)
	assert.Equal(t, 1, int(g.hands[0][Blue2]), "the draw comes first")
	assert.Equal(t, []Colour{Red, Blue, Yellow}, colourOptions(g))

	h := fixture(t, 3)
	deal(t, h, 0, Squire2)
	stack(t, h, Dodge)
	h.startTournament(0)
	assert.Equal(t, []Colour{Purple, Red, Blue, Yellow, Green}, colourOptions(h), "a supporter backs any colour")
}

func TestR6_NoPurpleRightAfterAPurpleTournament(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Purple)
	lay(t, g, 0, Purple3)
	deal(t, g, 1, Purple4, Squire2)
	stack(t, g, Dodge)
	g.in[1] = true
	g.turn, g.toMove = 1, 1
	do(t, g, option(Withdraw))
	require.Equal(t, PhaseTakeToken, g.phase)
	do(t, g, option(TakeToken, int(Blue)))
	// Seat 0 starts again, holding only a purple 4 and a squire of the starting hands.
	g2 := fixture(t, 2)
	g2.lastPurple = true
	deal(t, g2, 0, Purple4, Squire2)
	g2.startTournament(0)
	assert.NotContains(t, colourOptions(g2), Purple)
	assert.True(t, g.lastPurple)
}

func TestR7_StarterWithoutAColourRevealsAndPassesTheStart(t *testing.T) {
	g := fixture(t, 3)
	deal(t, g, 0, Dodge, Retreat)
	deal(t, g, 1, Red3)
	stack(t, g, Charge, Yellow4)
	g.startTournament(0)
	assert.Equal(t, 3, countKind(g, EvRevealHand), "seat 0 shows Dodge, Retreat and the Charge it drew, one event per kind")
	for _, e := range g.log {
		if EventKind(e.Kind) == EvRevealHand {
			assert.Equal(t, 0, int(e.Seat))
		}
	}
	assert.Equal(t, PhaseChooseColour, g.phase)
	assert.Equal(t, 1, g.toMove)
	assert.Equal(t, 1, int(g.hands[1][Yellow4]), "the next starter draws too")
}

func TestR7_TheStartGoesRoundUntilSomeoneCan(t *testing.T) {
	g := fixture(t, 2)
	deal(t, g, 0, Dodge)
	deal(t, g, 1, Retreat)
	stack(t, g, Charge, Outwit, Adapt, Red3)
	g.startTournament(0)
	// 0 draws Charge, 1 draws Outwit, 0 draws Adapt, 1 draws red 3 and starts.
	assert.Equal(t, 1, g.toMove)
	assert.Equal(t, []Colour{Red}, colourOptions(g))
	assert.Equal(t, 4, countKind(g, EvStarter), "three failed starts, then one that works")
}

func TestR8_StartersFirstCardIsOfTheColourOrASupporter(t *testing.T) {
	g := fixture(t, 3)
	deal(t, g, 0, Red3, Blue4, Squire3, Charge, Shield)
	g.startTournament(0)
	do(t, g, option(ChooseColour, int(Red)))
	assert.ElementsMatch(t, []string{"play red 3", "play squire 3"}, describeAll(g),
		"no other colour, no action card, no withdrawing before the first card")
	do(t, g, option(PlayCard, int(Squire3)))
	assert.True(t, has(g, action(Shield)), "after the first card the turn is a normal turn")
	assert.True(t, has(g, option(Withdraw)))
}
