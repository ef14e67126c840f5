package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lateGame is a five-player Kardinal game played by KardinalPlacer past its interim
// scoring until at most pile cards are left in the draw pile.
func lateGame(t *testing.T, pile int) *kardinal.Game {
	g, err := engine.New("kardinal", 7, 5)
	require.NoError(t, err)
	k, r := g.(*kardinal.Game), engine.NewRand(7)
	for !k.InterimDone() || k.DrawPile() > pile {
		require.False(t, g.Terminal())
		require.NoError(t, g.Apply(KardinalPlacer(g, &r)))
	}
	return k
}

// endsReached runs 200 iterations of a search with cfg from g's decision and counts
// the play-outs that reached the end of the game.
func endsReached(t *testing.T, g engine.Game, cfg Config) int {
	seat := g.ToMove()
	ended := 0
	cfg.Iterations, cfg.Evaluate = 200, func(g engine.Game, reward []float64) {
		if g.Terminal() {
			ended++
		}
		KardinalPotential(5)(g, reward)
	}
	s, err := NewSearch("kardinal", nil, 1, cfg)
	require.NoError(t, err)
	_, err = s.Choose(g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options(), time.Time{})
	require.NoError(t, err)
	return ended
}

// TestEndgamePlaysToTheFinalScoring: with endgame=12 every play-out from a decision
// past the interim scoring with at most 12 cards in the pile reaches the end of the
// game, where without it most stop at the cutoff; before the interim scoring the
// cutoff holds either way.
func TestEndgamePlaysToTheFinalScoring(t *testing.T) {
	late := lateGame(t, 12)
	assert.Equal(t, 200, endsReached(t, late, Config{Cutoff: 16, Endgame: 12}))
	assert.Less(t, endsReached(t, late, Config{Cutoff: 16}), 100)
	early := midGame(t, "kardinal", 5, 20)
	assert.Zero(t, endsReached(t, early, Config{Cutoff: 16, Endgame: 12}))
	off, err := ParseSettings("endgame=0")
	require.NoError(t, err)
	assert.Negative(t, off.Endgame)
	on, err := ParseSettings("endgame=12")
	require.NoError(t, err)
	assert.Equal(t, 12, on.Endgame)
	for _, bad := range []string{"endgame=-1", "endgame=101", "endgame=x"} {
		_, err = ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}

// TestAlliesCreditTheContestedAlliances: a seat leading one country of an alliance
// and one advisor behind the lead of the other gains the credit, per advisor of both
// plus one; two behind, or where the other country cannot take another advisor, it
// gains nothing, nor does a seat leading neither side.
func TestAlliesCreditTheContestedAlliances(t *testing.T) {
	g, err := engine.New("kardinal", 1, 5)
	require.NoError(t, err)
	b := g.(*kardinal.Game).Board()
	a := b.Alliances()[0]
	var tab kardinal.Table
	for _, sp := range b.SpacesOf(a.B)[:4] { // seat 1's four monasteries: room for four advisors (K4)
		tab.PlaceMonastery(b, 1, int(sp))
	}
	tab.PlaceMonastery(b, 0, int(b.SpacesOf(a.A)[0]))
	tab.Advisors[a.A][0] = 1 // seat 0 leads A
	tab.Advisors[a.B][1] = 2 // seat 1 leads B, seat 0 one behind it
	tab.Advisors[a.B][0] = 1
	score := make([]float64, 5)
	contestedAlliances(&tab, b, 0.5, score)
	others := 0.0
	for _, x := range score[1:] {
		others += x
	}
	assert.InDelta(t, 0.5*(1+3+1), score[0], 1e-9, "seat 0 leads A, one behind in B")
	assert.Zero(t, others, "seat 1 leads B with no advisor in A")

	tab.Advisors[a.B][0] = 0 // two behind, B with room
	clear(score)
	contestedAlliances(&tab, b, 0.5, score)
	assert.Zero(t, score[0], "two behind")
	tab.Advisors[a.B][0], tab.Advisors[a.B][1] = 1, 3 // two behind, and B is full
	require.False(t, tab.CanTakeAdvisor(a.B))
	clear(score)
	contestedAlliances(&tab, b, 0.5, score)
	assert.Zero(t, score[0])
	ok, err := ParseSettings("ally=0.35")
	require.NoError(t, err)
	assert.InDelta(t, 0.35, ok.Ally, 1e-12)
	_, err = ParseSettings("ally=11")
	assert.ErrorContains(t, err, "must be between 0 and")
}

// TestJokerPriceTakesOffJokerPlacements: with a price, every reward backed up through
// a placement paid with a joker loses the price, through one paid with cards of its
// country nothing, and a non-placement (an exchange, a refill) costs nothing either.
func TestJokerPriceTakesOffJokerPlacements(t *testing.T) {
	g, err := engine.New("kardinal", 3, 5)
	require.NoError(t, err)
	r := engine.NewRand(3)
	var joker, plain, other *engine.Option
	for (joker == nil || plain == nil || other == nil) && !g.Terminal() {
		for _, o := range g.Options() {
			p, ok := kardinal.AsPlacement(o)
			switch {
			case ok && p.Joker && joker == nil:
				joker = &o
			case ok && !p.Joker && plain == nil:
				plain = &o
			case !ok && other == nil:
				other = &o
			}
		}
		require.NoError(t, g.Apply(KardinalPlacer(g, &r)))
	}
	if joker == nil || plain == nil || other == nil {
		t.Fatal("a game offers all three")
	}
	var tr tree
	tr.reset()
	tr.price = jokerPrice(0.1)
	path := []int32{0, tr.add(0, *joker, 0), tr.add(0, *plain, 0), tr.add(0, *other, 0)}
	tr.backup(path, []float64{1, 0, 0, 0, 0})
	assert.InDelta(t, 0.9, tr.nodes[path[1]].reward, 1e-6, "a joker's placement")
	assert.InDelta(t, 1.0, tr.nodes[path[2]].reward, 1e-6, "a placement paid with its country's cards")
	assert.InDelta(t, 1.0, tr.nodes[path[3]].reward, 1e-6, "no placement")
	assert.Nil(t, jokerPrice(-1))
	off, err := ParseSettings("joker=0")
	require.NoError(t, err)
	assert.Negative(t, off.Joker)
	_, err = ParseSettings("joker=2")
	assert.ErrorContains(t, err, "must be between 0 and 1")
}
