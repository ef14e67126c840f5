package kardinal

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
)

// position starts a game for hand-built scenarios: a fresh deal, seat 0 on turn.
// Helpers below move cards and pieces while keeping every card and piece counted once,
// so the invariant checker still applies; call refresh after changing the state.
func position(t *testing.T, players int) *Game {
	t.Helper()
	g, err := New(7, players)
	require.NoError(t, err)
	g.start = 0
	g.beginTurn(0)
	g.refresh()
	return g
}

func (g *Game) refresh() { g.computeOptions() }

// takeFromPile removes one card of kind k from the pile (searching from the top).
func takeFromPile(t *testing.T, g *Game, k Kind) {
	t.Helper()
	for i := int(g.pileLen) - 1; i >= 0; i-- {
		if Kind(g.pile[i]) == k {
			copy(g.pile[i:], g.pile[i+1:g.pileLen])
			g.pileLen--
			return
		}
	}
	require.Failf(t, "no such card in the pile", "%s", k)
}

func returnToPile(g *Game, counts *[NumKinds]uint8) {
	for k := Kind(0); k < NumKinds; k++ {
		for ; counts[k] > 0; counts[k]-- {
			g.pile[g.pileLen] = uint8(k)
			g.pileLen++
		}
	}
}

// setHand gives seat exactly these cards, trading with the pile.
func setHand(t *testing.T, g *Game, seat int, cards ...Kind) {
	t.Helper()
	returnToPile(g, &g.hands[seat])
	for _, k := range cards {
		takeFromPile(t, g, k)
		g.hands[seat][k]++
	}
}

// setFaceUp lays exactly these cards face up, trading with the pile.
func setFaceUp(t *testing.T, g *Game, cards ...Kind) {
	t.Helper()
	returnToPile(g, &g.faceUp)
	for _, k := range cards {
		takeFromPile(t, g, k)
		g.faceUp[k]++
	}
}

// setPile leaves only n cards in the draw pile, moving the rest to the discard pile.
func setPile(g *Game, n int) {
	for int(g.pileLen) > n {
		g.pileLen--
		g.discard[g.pile[g.pileLen]]++
	}
}

// monasteries puts n of seat's monasteries on the first free spaces of country c.
func monasteries(t *testing.T, g *Game, seat int, c Country, n int) {
	t.Helper()
	for _, sp := range g.board.SpacesOf(c) {
		if n == 0 {
			return
		}
		if g.table.Owner[sp] == 0 {
			monasteryAt(t, g, seat, int(sp))
			n--
		}
	}
	require.Zero(t, n, "%s has too few free spaces", c)
}

// monasteryAt puts seat's monastery on a space given by its board-file number.
func monasteryAt(t *testing.T, g *Game, seat, space int) {
	t.Helper()
	require.Zero(t, g.table.Owner[space], "space %d is taken", space+1)
	require.Positive(t, g.monSupply[seat])
	g.table.PlaceMonastery(g.board, seat, space)
	g.monSupply[seat]--
}

func advisors(t *testing.T, g *Game, seat int, c Country, n int) {
	t.Helper()
	require.GreaterOrEqual(t, int(g.advSupply[seat]), n)
	g.table.Advisors[c][seat] += uint8(n)
	g.advSupply[seat] -= uint8(n)
}

// pick applies the option o, failing the test when it is not legal now.
func pick(t *testing.T, g *Game, o engine.Option) {
	t.Helper()
	i, ok := engine.Find(g, o)
	require.True(t, ok, "%s is not an option; options: %v", g.Describe(o), describeAll(g))
	require.NoError(t, g.Apply(i))
}

func has(g *Game, o engine.Option) bool {
	_, ok := engine.Find(g, o)
	return ok
}

func describeAll(g *Game) []string {
	var s []string
	for _, o := range g.Options() {
		s = append(s, g.Describe(o))
	}
	return s
}

// placements reads back the Place options.
func placements(g *Game) []Placement {
	var ps []Placement
	for _, o := range g.Options() {
		if p, ok := AsPlacement(o); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

func countKind(g *Game, k OptionKind) int {
	n := 0
	for _, o := range g.Options() {
		if OptionKind(o.Kind) == k {
			n++
		}
	}
	return n
}

func eventsOf(g *Game, k EventKind) []engine.Event {
	var es []engine.Event
	for _, e := range g.Log() {
		if EventKind(e.Kind) == k {
			es = append(es, e)
		}
	}
	return es
}

func mon(c Country, space int, k Kind) engine.Option { return PlaceOption(c, space, k, false) }
func adv(c Country, k Kind) engine.Option            { return PlaceOption(c, NoSpace, k, false) }
func advJoker(c Country, k Kind) engine.Option       { return PlaceOption(c, NoSpace, k, true) }

// firstFree is a free space of c (0-based).
func firstFree(g *Game, c Country) int {
	for _, sp := range g.board.SpacesOf(c) {
		if g.table.Owner[sp] == 0 {
			return int(sp)
		}
	}
	return NoSpace
}
