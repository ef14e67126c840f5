package kardinal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rulebook's examples, played on hand-built positions. Seats stand for the people
// of the rulebook: José 0, María 1, Pedro 2, Laura 3.
const (
	jose, maria, pedro, laura = 0, 1, 2, 3
)

func TestRulebookPlacementExamples(t *testing.T) {
	t.Run("José opens Franken with one card and may place nothing more", func(t *testing.T) {
		g := position(t, 4)
		setHand(t, g, jose, Purple, Red, Red)
		g.refresh()
		// No advisor may go into an empty country.
		assert.False(t, has(g, adv(Franken, Red)))
		sp := firstFree(g, Franken)
		pick(t, g, mon(Franken, sp, Red))
		assert.Equal(t, PhaseRefill, g.phase, "the first piece in an empty country ends the placing")
		assert.Equal(t, [NumKinds]uint8{Red: 1, Purple: 1}, g.hands[jose])
		assert.Equal(t, 0, countKind(g, Place))
	})
	t.Run("María adds a monastery with her card and an advisor with a joker", func(t *testing.T) {
		g := position(t, 4)
		monasteries(t, g, jose, Franken, 1)
		g.beginTurn(maria)
		setHand(t, g, maria, Red, Green, Green)
		g.refresh()
		pick(t, g, mon(Franken, firstFree(g, Franken), Red))
		require.Equal(t, PhaseSecond, g.phase)
		pick(t, g, advJoker(Franken, Green))
		assert.Equal(t, 1, int(g.table.Advisors[Franken][maria]))
		assert.Equal(t, 1, int(g.table.Monasteries[Franken][maria]))
		assert.Equal(t, 2, g.table.MonasteriesIn(Franken))
		assert.Equal(t, [NumKinds]uint8{}, g.hands[maria], "all three cards were played")
		assert.Equal(t, PhaseRefill, g.phase)
	})
	t.Run("Pedro's three Frankreich cards: two pieces there, or a joker anywhere", func(t *testing.T) {
		base := position(t, 4)
		monasteries(t, base, maria, Frankreich, 1)
		base.beginTurn(pedro)
		setHand(t, base, pedro, Purple, Purple, Purple)
		base.refresh()

		a := base.Clone().(*Game)
		pick(t, a, mon(Frankreich, firstFree(a, Frankreich), Purple))
		pick(t, a, mon(Frankreich, firstFree(a, Frankreich), Purple))
		assert.Equal(t, PhaseRefill, a.phase, "two pieces end the placing")
		assert.Equal(t, 2, int(a.table.Monasteries[Frankreich][pedro]))
		assert.Equal(t, 1, int(a.hands[pedro][Purple]))

		b := base.Clone().(*Game)
		sp := firstFree(b, Italien)
		pick(t, b, PlaceOption(Italien, sp, Purple, true))
		assert.Equal(t, pedro+1, int(b.table.Owner[sp]))
		assert.Equal(t, PhaseRefill, b.phase, "Italien was empty, and the last card does not name it anyway")

		// The three cards together: one card and a joker of the same kind, both in
		// Frankreich.
		c := base.Clone().(*Game)
		pick(t, c, mon(Frankreich, firstFree(c, Frankreich), Purple))
		pick(t, c, PlaceOption(Frankreich, firstFree(c, Frankreich), Purple, true))
		assert.Equal(t, [NumKinds]uint8{}, c.hands[pedro])
	})
	t.Run("José adds two advisors to Frankreich up to María's four monasteries", func(t *testing.T) {
		g := position(t, 4)
		monasteries(t, g, maria, Frankreich, 4)
		monasteries(t, g, pedro, Frankreich, 1)
		advisors(t, g, maria, Frankreich, 1)
		advisors(t, g, pedro, Frankreich, 1)
		setHand(t, g, jose, Purple, Orange, Orange)
		g.refresh()
		pick(t, g, adv(Frankreich, Purple))
		pick(t, g, advJoker(Frankreich, Orange))
		assert.Equal(t, 4, g.table.AdvisorsIn(Frankreich))
		assert.Equal(t, 2, int(g.table.Advisors[Frankreich][jose]), "José owns no monastery there")
	})
	t.Run("Italien with 2 and 2 monasteries takes two advisors, or a monastery then an advisor", func(t *testing.T) {
		g := position(t, 4)
		monasteries(t, g, maria, Italien, 2)
		monasteries(t, g, laura, Italien, 2)
		setHand(t, g, jose, Yellow, Yellow, Purple)
		g.refresh()
		a := g.Clone().(*Game)
		pick(t, a, adv(Italien, Yellow))
		pick(t, a, adv(Italien, Yellow))
		assert.Equal(t, 2, a.table.AdvisorsIn(Italien))

		// With two advisors there, María adds a monastery (her third) and then an
		// advisor for the place it opens; the other order is not possible.
		b := position(t, 4)
		monasteries(t, b, maria, Italien, 2)
		monasteries(t, b, laura, Italien, 2)
		advisors(t, b, jose, Italien, 2)
		b.beginTurn(maria)
		setHand(t, b, maria, Yellow, Yellow, Purple)
		b.refresh()
		assert.False(t, has(b, adv(Italien, Yellow)), "the cap of two is reached")
		pick(t, b, mon(Italien, firstFree(b, Italien), Yellow))
		pick(t, b, adv(Italien, Yellow))
		assert.Equal(t, 3, b.table.AdvisorsIn(Italien))
	})
}

func TestRulebookScoringExamples(t *testing.T) {
	t.Run("Frankreich 4/2/1 scores 7/4/2", func(t *testing.T) {
		g := position(t, 4)
		monasteries(t, g, jose, Frankreich, 4)
		monasteries(t, g, maria, Frankreich, 2)
		monasteries(t, g, laura, Frankreich, 1)
		pts := g.table.CountryPoints(Frankreich, 4)
		assert.Equal(t, [MaxPlayers]int{jose: 7, maria: 4, pedro: 0, laura: 2}, pts)
	})
	t.Run("Lothringen 2/2/1 scores 5/5/2", func(t *testing.T) {
		g := position(t, 4)
		monasteries(t, g, maria, Lothringen, 2)
		monasteries(t, g, pedro, Lothringen, 2)
		monasteries(t, g, laura, Lothringen, 1)
		pts := g.table.CountryPoints(Lothringen, 4)
		assert.Equal(t, [MaxPlayers]int{jose: 0, maria: 5, pedro: 5, laura: 2}, pts)
	})
	// Colours: Laura blue, María red, José green.
	t.Run("alliance 14 Italien-Burgund gives Laura 6", func(t *testing.T) {
		g := position(t, 4)
		al := g.board.Alliances()[13]
		require.Equal(t, Alliance{14, Italien, Burgund}, al)
		advisors(t, g, laura, Italien, 2)
		advisors(t, g, maria, Italien, 1)
		advisors(t, g, jose, Italien, 1)
		advisors(t, g, laura, Burgund, 1)
		advisors(t, g, maria, Burgund, 1)
		assert.Equal(t, [MaxPlayers]int{laura: 6}, g.table.AlliancePoints(al, 4))
	})
	t.Run("alliance 15 Italien-Bayern split between leaders gives nobody points", func(t *testing.T) {
		g := position(t, 4)
		al := g.board.Alliances()[14]
		require.Equal(t, Alliance{15, Italien, Bayern}, al)
		advisors(t, g, laura, Italien, 2)
		advisors(t, g, maria, Italien, 1)
		advisors(t, g, jose, Italien, 1)
		advisors(t, g, maria, Bayern, 2)
		advisors(t, g, jose, Bayern, 1)
		assert.Equal(t, [MaxPlayers]int{}, g.table.AlliancePoints(al, 4))
	})
	t.Run("Pedro's five-monastery chain through Italien and Burgund with a branch to Bayern scores 5", func(t *testing.T) {
		g := position(t, 4)
		// Board-file numbers: Burgund 30, Italien 48-49-50-51, and the branch at 50
		// to Bayern 46.
		for _, n := range []int{30, 48, 49, 50, 51, 46} {
			monasteryAt(t, g, pedro, n-1)
		}
		require.Equal(t, Bayern, g.board.CountryOf(46-1))
		require.Equal(t, Burgund, g.board.CountryOf(30-1))
		assert.Equal(t, []int{5}, g.table.Chains(g.board, pedro, nil))
		assert.Equal(t, 5, g.table.ChainPoints(g.board, pedro))
	})
}
