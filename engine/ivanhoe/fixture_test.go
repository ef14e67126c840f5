package ivanhoe

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
)

// fixture is a game with every card in the draw pile (in kind order), nobody holding
// anything, and seat 0 on turn in a tournament of no colour yet: rule scenarios set up
// exactly the position they need with deal, lay, stack and turnOf, and the card count
// invariant still holds.
func fixture(t *testing.T, players int) *Game {
	t.Helper()
	g, err := New(1, players)
	require.NoError(t, err)
	g.log = g.log[:0]
	g.hands = [MaxPlayers][NumCards]uint8{}
	g.handSize = [MaxPlayers]int{}
	g.disp = [MaxPlayers]display{}
	g.discard, g.discardN = [NumCards]uint8{}, 0
	g.drawN = 0
	for c := Card(0); c < NumCards; c++ {
		for i := 0; i < c.Count(); i++ {
			g.draw[g.drawN] = c
			g.drawN++
		}
	}
	for s := 0; s < players; s++ {
		g.in[s], g.entered[s] = true, false
	}
	g.shield, g.stunned = engine.NoSeat, engine.NoSeat
	g.colour, g.lastPurple = NoColour, false
	g.tournaments = 1
	turnOf(g, 0, NoColour)
	return g
}

// pull removes one card of kind c from the draw pile.
func pull(t *testing.T, g *Game, c Card) {
	t.Helper()
	for i := g.drawN - 1; i >= 0; i-- {
		if g.draw[i] == c {
			copy(g.draw[i:g.drawN], g.draw[i+1:g.drawN])
			g.drawN--
			return
		}
	}
	t.Fatalf("no %s left in the draw pile", c)
}

// deal gives seat the cards from the draw pile.
func deal(t *testing.T, g *Game, seat int, cards ...Card) {
	t.Helper()
	for _, c := range cards {
		pull(t, g, c)
		g.toHand(seat, c)
	}
	g.optsValid = false
}

// lay puts the cards into seat's display, earliest first.
func lay(t *testing.T, g *Game, seat int, cards ...Card) {
	t.Helper()
	for _, c := range cards {
		pull(t, g, c)
		g.disp[seat].push(c)
		g.entered[seat] = true
	}
	g.optsValid = false
}

// stack puts the cards on top of the draw pile: the first listed is drawn first.
func stack(t *testing.T, g *Game, cards ...Card) {
	t.Helper()
	for _, c := range cards {
		pull(t, g, c)
	}
	for i := len(cards) - 1; i >= 0; i-- {
		g.draw[g.drawN] = cards[i]
		g.drawN++
	}
}

// turnOf makes it seat's turn, after its draw, in a tournament of colour col.
func turnOf(g *Game, seat int, col Colour) {
	g.colour = col
	g.phase, g.turn, g.toMove = PhaseTurn, seat, seat
	g.played, g.added, g.first = 0, 0, false
	g.optsValid = false
}

func option(k OptionKind, args ...int) engine.Option {
	a := [4]int{NoArg, NoArg, NoArg, NoArg}
	copy(a[:], args)
	return opt(k, a[0], a[1], a[2], a[3])
}

func action(c Card, args ...int) engine.Option {
	return option(PlayAction, append([]int{int(c)}, args...)...)
}

func has(g *Game, o engine.Option) bool {
	_, ok := engine.Find(g, o)
	return ok
}

// do applies o, which must be legal.
func do(t *testing.T, g *Game, o engine.Option) {
	t.Helper()
	i, ok := engine.Find(g, o)
	require.True(t, ok, "%s (%+v) is not legal for seat %d in phase %s; options: %v", g.Describe(o), o, g.toMove, g.phase, describeAll(g))
	require.NoError(t, g.Apply(i))
	require.NoError(t, checkInvariants(g))
	letStandUnlessHeld(t, g)
}

// letStandUnlessHeld answers the Ivanhoe questions of players without the card: their
// one option lets the action stand (R23a). Scenarios about other rules skip them; the
// R23 tests ask with Apply.
func letStandUnlessHeld(t *testing.T, g *Game) {
	t.Helper()
	for g.phase == PhaseReaction && g.hands[g.toMove][Ivanhoe] == 0 {
		require.Len(t, g.Options(), 1)
		require.NoError(t, g.Apply(0))
		require.NoError(t, checkInvariants(g))
	}
}

func describeAll(g *Game) []string {
	var d []string
	for _, o := range g.Options() {
		d = append(d, g.Describe(o))
	}
	return d
}

func countKind(g *Game, k EventKind) int {
	n := 0
	for _, e := range g.log {
		if EventKind(e.Kind) == k {
			n++
		}
	}
	return n
}

// announced lists the totals announced at the ends of turns, in order.
func announced(g *Game) []int {
	var a []int
	for _, e := range g.log {
		if EventKind(e.Kind) == EvEndTurn {
			a = append(a, int(e.A))
		}
	}
	return a
}
