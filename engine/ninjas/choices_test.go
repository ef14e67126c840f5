package ninjas

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The choices made where the rulebook and rulings are silent (see the package doc).

func TestChoice_EverySeatIsAskedEvenWithNothingToPlay(t *testing.T) {
	g := table{players: 4, hands: [][]Kind{hand(Soldier), nil, nil, nil}}.build(t)
	play(t, g, 0, attack(Soldier, 2))
	assert.Equal(t, []engine.Option{decline()}, g.Options(), "the defender is asked")
	play(t, g, 2, decline())
	for _, s := range []int{1, 2, 3} {
		require.Equal(t, s, g.ToMove(), "every seat but the receiver, from the attacker's left")
		assert.Equal(t, []engine.Option{letGo()}, g.Options())
		play(t, g, s, letGo())
	}
	assert.Equal(t, 1, g.turnSeat)
}

func TestChoice_BreakersOnlyWhileTheyHaveAnEffect(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Archer, Catapult, Ladder, Ladder, Soldier), nil}}.build(t)
	for _, k := range []Kind{Archer, Catapult, Ladder} {
		assert.False(t, legal(g, attack(k, 1)), "%s against an open kingdom", k)
	}
	g = table{players: 2, hands: [][]Kind{hand(Ladder, Ladder, Soldier, Soldier), hand(Soldier)}, forts: [][]Kind{nil, {Castle}}}.build(t)
	play(t, g, 0, attack(Ladder, 1))
	assert.False(t, legal(g, attack(Ladder, 1)), "one Ladder a turn")
	play(t, g, 0, attack(Soldier, 1))
	play(t, g, 1, respond(Soldier))
	assert.True(t, legal(g, attack(Soldier, 1)), "the Ladder stands for the rest of the turn")
}

func TestChoice_AJesterPlaysAlone(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Peasant, Peasant, Jester), nil}}.build(t)
	assert.True(t, legal(g, revolt(2, 1)))
	assert.False(t, legal(g, revolt(3, 1)), "the Jester does not join the revolt")
	assert.True(t, legal(g, jesterAttack(Peasant, 1)))
	play(t, g, 0, jesterAttack(Peasant, 1))
	play(t, g, 1, decline())
	assert.Equal(t, 4, g.Gems(1), "a Jester named Peasant takes one gem")
}

func TestChoice_OneMinstrelStandsAndLeavesAtTheOwnersTurn(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Minstrel, Minstrel, Jester), nil}}.build(t)
	play(t, g, 0, fortify(Minstrel))
	assert.False(t, legal(g, fortify(Minstrel)), "no second Minstrel")
	assert.False(t, legal(g, jesterFortify(Minstrel)), "not even a Jester")
	assert.True(t, legal(g, jesterFortify(Castle)))

	// The attacker's own Minstrel, played against a turned card, ends their own turn
	// and stands until their next turn.
	g = table{players: 3, hands: [][]Kind{hand(King), hand(Traitor), nil}}.build(t)
	g.hands[0][Minstrel]++
	g.pileN-- // keep the 95 cards: the Minstrel came from the draw pile
	g.pile[g.pileN], g.pile[indexOfKind(g, Minstrel)] = g.pile[indexOfKind(g, Minstrel)], g.pile[g.pileN]
	g.listOptions()
	require.NoError(t, checkInvariants(g))
	play(t, g, 0, attack(King, 1))
	play(t, g, 1, respond(Traitor))
	play(t, g, 0, respond(Minstrel))
	assert.Equal(t, 5, g.Gems(0))
	assert.Equal(t, Minstrel, g.forts[0][FortMinstrel])
	require.Equal(t, 1, g.turnSeat, "the attacker's turn ended")
	assert.False(t, attackTargets(g)[0])
	play(t, g, 1, g.opts[0])
	play(t, g, 2, g.opts[0])
	assert.Equal(t, NoKind, g.forts[0][FortMinstrel])
}

// indexOfKind finds a card of kind k in the draw pile below its top.
func indexOfKind(g *Game, k Kind) int {
	for i := g.pileN - 1; i >= 0; i-- {
		if g.pile[i] == k {
			return i
		}
	}
	return g.pileN
}

func TestChoice_TheAttackersPrincessTakesATurnedKnightBack(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Knight, Princess), hand(Traitor)}}.build(t)
	play(t, g, 0, attack(Knight, 1))
	play(t, g, 1, respond(Traitor))
	play(t, g, 0, respond(Princess))
	assert.Equal(t, uint8(1), g.hands[0][Knight])
	assert.Equal(t, PhaseAttacking, g.phase)
	assert.True(t, legal(g, attack(Knight, 1)), "and may attack with it again")
}

func TestChoice_NinjaAndDragonActEvenWhenNoGemMoves(t *testing.T) {
	g := table{players: 3, hands: [][]Kind{hand(Ninja, Dragon), nil, nil}, gems: []int{6, 0, 9},
		forts: [][]Kind{nil, {Castle, Archer}}}.build(t)
	play(t, g, 0, attack(Ninja, 1))
	play(t, g, 1, decline())
	assert.Equal(t, NoKind, g.forts[1][FortArcher])
	require.Equal(t, PhaseAttacking, g.phase, "no gems moved")
	play(t, g, 0, attack(Dragon, 1))
	play(t, g, 1, decline())
	assert.Equal(t, NoKind, g.forts[1][FortCastle])
	assert.Equal(t, PhaseAttacking, g.phase)
}

func TestChoice_AnEmptyPileIsRefilledFromTheDiscards(t *testing.T) {
	// All but the dealt cards lie on the discard pile.
	g := table{players: 2, hands: [][]Kind{hand(Soldier), nil}, setupFn: func(g *Game) {
		for _, k := range g.pile[:g.pileN] {
			g.discard[k]++
		}
		g.pileN = 0
	}}.build(t)
	from := len(g.log)
	play(t, g, 0, discardOpt(Soldier))
	assert.Contains(t, eventsSince(g, from), EvReshuffle)
	assert.Equal(t, 2, handSize(&g.hands[1]))
	assert.Equal(t, DeckSize-2, g.pileN, "the discarded Soldier was shuffled in too")

	// Nothing to draw at all: fewer cards.
	g = table{players: 2, hands: [][]Kind{hand(Soldier), nil}, setupFn: func(g *Game) {
		for _, k := range g.pile[:g.pileN] {
			g.hands[0][k]++
		}
		g.pileN = 0
	}}.build(t)
	play(t, g, 0, discardOpt(Soldier))
	assert.Equal(t, 1, handSize(&g.hands[1]), "only the discarded Soldier was there to draw")
}
