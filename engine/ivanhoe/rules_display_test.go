package ivanhoe

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestR9_ColourCardsMatchSupportersAlwaysFit(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Blue)
	lay(t, g, 0, Blue3)
	deal(t, g, 0, Blue4, Red4, Purple7, Squire2, Maiden)
	assert.ElementsMatch(t, []string{"play blue 4", "play squire 2", "play maiden 6", "withdraw"}, describeAll(g))
}

func TestR9_GreenCountsOnePerCardButActionsSeePrintedValues(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Green)
	lay(t, g, 0, Squire3, Maiden, Green1)
	lay(t, g, 1, Squire2, Green1)
	assert.Equal(t, 3, g.Total(0))
	assert.Equal(t, 2, g.Total(1))
	deal(t, g, 0, Charge)
	do(t, g, action(Charge))
	// The lowest printed value is 1: only the green 1s go, the squires stay.
	assert.Equal(t, []Card{Squire3, Maiden}, g.disp[0].slice())
	assert.Equal(t, []Card{Squire2}, g.disp[1].slice())
}

func TestR10_NeverTwoMaidensInADisplay(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Maiden)
	lay(t, g, 1, Red3, Maiden)
	deal(t, g, 0, Maiden, Riposte, Red3)
	assert.False(t, has(g, option(PlayCard, int(Maiden))))
	assert.False(t, has(g, action(Riposte, 1)), "Riposte would take a second maiden")
	deal(t, g, 0, Outwit)
	assert.False(t, has(g, action(Outwit, 1, 0, 1)), "taking their maiden for my maiden is a fair swap")
	lay(t, g, 0, Red4)
	assert.True(t, has(g, action(Outwit, 1, 0, 1)), "maiden for maiden keeps one each")
	assert.False(t, has(g, action(Outwit, 1, 1, 1)), "giving the red 4 for their maiden would make two")
}

func TestR11_ActionsNeverEmptyAnEnteredDisplay(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Purple)
	lay(t, g, 0, Purple3)
	lay(t, g, 1, Purple4)
	lay(t, g, 2, Purple5, Purple7)
	deal(t, g, 0, Dodge, BreakLance, Retreat)
	assert.False(t, has(g, action(Dodge, 1, 0)), "a one-card display cannot be dodged")
	assert.True(t, has(g, action(Dodge, 2, 0)))
	assert.False(t, has(g, action(Retreat, NoArg, 0)))
	assert.False(t, has(g, action(BreakLance, 1)), "it would remove nothing")
	do(t, g, action(BreakLance, 2))
	assert.Equal(t, []Card{Purple5}, g.disp[2].slice(), "the earliest card stays")
}

func TestR12_ActionCardsOnlyWhereTheyChangeSomething(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red4)
	deal(t, g, 0, Unhorse, BreakLance, Outmaneuver, Adapt, Disgrace, Charge, Countercharge, Retreat)
	for _, c := range []Card{Unhorse, BreakLance, Outmaneuver, Adapt, Disgrace, Charge, Countercharge, Retreat} {
		for _, o := range g.Options() {
			assert.False(t, OptionKind(o.Kind) == PlayAction && Card(o.A) == c, "%s has no effect here", c)
		}
	}
	lay(t, g, 1, Red3)
	assert.True(t, has(g, action(Charge)), "now a 3 would leave seat 1's display")
	assert.False(t, has(g, action(Adapt)), "each display holds one card of each value")
	lay(t, g, 1, Red4)
	assert.True(t, has(g, action(Adapt)), "seat 1 now holds two 4s")
}

func TestR13_ShieldStopsOpponentsDisplayActionsOnly(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3, Red3)
	lay(t, g, 1, Red4, Red5, Red4)
	g.shield = 1
	pull(t, g, Shield)
	deal(t, g, 0, Dodge, Riposte, Outwit, Outmaneuver, Adapt, Countercharge, KnockDown, Stunned, ChangeWeapon, Charge)
	deal(t, g, 1, Yellow2)
	for _, o := range g.Options() {
		if OptionKind(o.Kind) == PlayAction && o.B == 1 {
			assert.Contains(t, []Card{KnockDown, Stunned}, Card(o.A), "only Knock Down and Stunned may target the shielded seat")
		}
	}
	assert.False(t, has(g, action(Outmaneuver)), "seat 1 is the only opponent with two cards")
	assert.True(t, has(g, action(ChangeWeapon, NoArg, int(Blue))))
	assert.True(t, has(g, action(Adapt)), "the actor's own two 3s")
	do(t, g, action(Countercharge))
	assert.Equal(t, []Card{Red4, Red5, Red4}, g.disp[1].slice(), "shielded")
	assert.Equal(t, []Card{Red3}, g.disp[0].slice(), "the actor's own 3s go, the earliest stays")

	// The holder's own action cards still act on the holder's display.
	h := fixture(t, 2)
	turnOf(h, 0, Red)
	h.shield = 0
	pull(t, h, Shield)
	lay(t, h, 0, Red3, Red4)
	lay(t, h, 1, Red5)
	deal(t, h, 0, Charge)
	do(t, h, action(Charge))
	assert.Equal(t, []Card{Red4}, h.disp[0].slice())
}

func TestR14_StunnedAddsOneCardPerTurn(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	g.stunned = 0
	pull(t, g, Stunned)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red5, Red4)
	deal(t, g, 0, Red4, Red3, Riposte, Outwit)
	assert.True(t, has(g, action(Riposte, 1)), "nothing added yet")
	do(t, g, option(PlayCard, int(Red4)))
	assert.False(t, has(g, option(PlayCard, int(Red3))), "a second card would be a second addition")
	assert.False(t, has(g, action(Riposte, 1)), "Riposte adds a card too")
	assert.True(t, has(g, action(Outwit, 1, 0, 0)), "Outwit is a swap, not an addition")

	// Stunned goes in front of any opponent still in the tournament, entered or not.
	h := fixture(t, 3)
	turnOf(h, 0, Red)
	lay(t, h, 0, Red3)
	h.in[2] = false
	deal(t, h, 0, Stunned)
	assert.True(t, has(h, action(Stunned, 1)), "seat 1 has not entered")
	assert.False(t, has(h, action(Stunned, 2)), "seat 2 has withdrawn")
	do(t, h, action(Stunned, 1))
	assert.Equal(t, 1, h.stunned)
}

func TestR15_ColourChanges(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Purple)
	lay(t, g, 0, Purple7)
	deal(t, g, 0, Unhorse, ChangeWeapon, DropWeapon)
	assert.ElementsMatch(t, []string{"Unhorse: the tournament becomes red", "Unhorse: the tournament becomes blue",
		"Unhorse: the tournament becomes yellow", "withdraw"}, describeAll(g))
	do(t, g, action(Unhorse, NoArg, int(Yellow)))
	assert.Equal(t, Yellow, g.colour)
	assert.Equal(t, 7, g.Total(0), "cards in displays stay and count")
	assert.True(t, has(g, action(ChangeWeapon, NoArg, int(Red))))
	assert.True(t, has(g, action(ChangeWeapon, NoArg, int(Blue))))
	assert.False(t, has(g, action(ChangeWeapon, NoArg, int(Purple))))
	do(t, g, action(DropWeapon, NoArg, int(Green)))
	assert.Equal(t, Green, g.colour)
	assert.Equal(t, 1, g.Total(0))
}

func TestR16_BreakLanceDiscardsAllPurple(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Purple)
	lay(t, g, 0, Purple3)
	lay(t, g, 1, Squire2, Purple5, Purple4, Squire3)
	deal(t, g, 0, BreakLance)
	do(t, g, action(BreakLance, 1))
	assert.Equal(t, []Card{Squire2, Squire3}, g.disp[1].slice())
	assert.Equal(t, 2, int(g.discard[Purple5]+g.discard[Purple4]))
}

func TestR17_RiposteTakesTheLastCardOnTop(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3, Red4)
	lay(t, g, 1, Red5, Squire2)
	deal(t, g, 0, Riposte)
	do(t, g, action(Riposte, 1))
	assert.Equal(t, []Card{Red3, Red4, Squire2}, g.disp[0].slice())
	assert.Equal(t, []Card{Red5}, g.disp[1].slice())
}

func TestR18_DodgeDiscardsAnyOneCard(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 1, Red3, Red5, Red3)
	deal(t, g, 0, Dodge)
	do(t, g, action(Dodge, 1, 1))
	assert.Equal(t, []Card{Red3, Red3}, g.disp[1].slice())
	assert.Equal(t, 1, int(g.discard[Red5]))
}

func TestR19_RetreatTakesAnOwnCardBackIntoTheHand(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Maiden, Red3)
	deal(t, g, 0, Retreat)
	do(t, g, action(Retreat, NoArg, 0))
	assert.Equal(t, []Card{Red3}, g.disp[0].slice())
	assert.Equal(t, 1, int(g.hands[0][Maiden]))
}

func TestR20_KnockDownTakesAHiddenRandomCardFromAnyOpponent(t *testing.T) {
	seen := map[Card]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		g := fixture(t, 3)
		g.rnd = engine.NewRand(seed)
		turnOf(g, 0, Red)
		lay(t, g, 0, Red3)
		g.in[2] = false // withdrawn players can still be robbed
		deal(t, g, 2, Blue2, Yellow4, Purple7)
		deal(t, g, 0, KnockDown)
		require.False(t, has(g, action(KnockDown, 1)), "seat 1 has no cards")
		do(t, g, action(KnockDown, 2))
		require.Equal(t, 2, g.handSize[2])
		require.Equal(t, 1, g.handSize[0])
		var taken Card
		for _, e := range g.log {
			switch EventKind(e.Kind) {
			case EvKnockDownCard:
				taken = Card(e.A)
				assert.True(t, e.Audience.Sees(0) && e.Audience.Sees(2) && !e.Audience.Sees(1), "only taker and victim")
			case EvKnockDown:
				assert.Equal(t, engine.Everyone, e.Audience)
				assert.Equal(t, int16(0), e.A, "the public event names no card")
			}
		}
		assert.Equal(t, 1, int(g.hands[0][taken]))
		seen[taken] = true
		v1 := g.ViewOf(1)
		assert.Equal(t, [NumCards]uint8{}, v1.Hand, "seat 1 learns nothing")
	}
	assert.Len(t, seen, 3, "every card of the hand can be taken")
}
