package kardinal

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestK1_PlayerCountsAndRemovedCards(t *testing.T) {
	for _, bad := range []int{0, 2, 6} {
		_, err := New(1, bad)
		require.Error(t, err, "%d players", bad)
		assert.Contains(t, err.Error(), "3 to 5")
	}
	for _, tc := range []struct {
		players, removed, cards int
	}{{3, 2, 45}, {4, 1, 50}, {5, 0, 55}} {
		g, err := New(11, tc.players)
		require.NoError(t, err)
		assert.Equal(t, tc.removed, int(g.removed), "%d players", tc.players)
		var inGame [NumKinds]int
		add := func(c *[NumKinds]uint8) {
			for k := range c {
				inGame[k] += int(c[k])
			}
		}
		for s := 0; s < tc.players; s++ {
			assert.Equal(t, HandSize, g.handSize(s))
			add(&g.hands[s])
		}
		add(&g.faceUp)
		for _, k := range g.pile[:g.pileLen] {
			inGame[k]++
		}
		total := 0
		for k := Kind(0); k < NumKinds; k++ {
			assert.Equal(t, k.Count()-tc.removed, inGame[k], "%s with %d players", k, tc.players)
			total += inGame[k]
		}
		assert.Equal(t, tc.cards, total)
		assert.Equal(t, FaceUpSize, g.faceUpSize())
	}
	spec := Spec()
	assert.Equal(t, 3, spec.MinPlayers)
	assert.Equal(t, 5, spec.MaxPlayers)
	g, err := spec.New(3, 4)
	require.NoError(t, err)
	assert.Equal(t, 4, g.Players())
}

func TestK2_ThreeCardsTwoPiecesOneCountry(t *testing.T) {
	t.Run("a card places only in a country it names; a joker places anywhere", func(t *testing.T) {
		g := position(t, 3)
		setHand(t, g, 0, Red, Red, Purple)
		g.refresh()
		reach := map[Country]map[bool]bool{}
		for _, p := range placements(g) {
			if !p.Joker {
				assert.True(t, p.Kind.Names(p.Country), "%s paid with a %s card", p.Country, p.Kind)
			} else {
				assert.Equal(t, Red, p.Kind, "only Red is held twice")
			}
			if reach[p.Country] == nil {
				reach[p.Country] = map[bool]bool{}
			}
			reach[p.Country][p.Joker] = true
		}
		assert.Len(t, reach, int(NumCountries), "the Red joker reaches every country")
		assert.False(t, reach[Italien][false], "no single card names Italien")
		assert.True(t, reach[Frankreich][false])
	})
	t.Run("the second piece goes into the same country", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, Frankreich, 1)
		monasteries(t, g, 1, Franken, 1)
		setHand(t, g, 0, Purple, Red, Red)
		g.refresh()
		pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
		require.Equal(t, PhaseSecond, g.phase)
		for _, p := range placements(g) {
			assert.Equal(t, Frankreich, p.Country)
		}
		assert.False(t, has(g, mon(Franken, firstFree(g, Franken), Red)))
		assert.True(t, has(g, PlaceOption(Frankreich, firstFree(g, Frankreich), Red, true)))
	})
	t.Run("two pieces at most, even with cards left", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, Frankreich, 1)
		setHand(t, g, 0, Purple, Purple, Purple)
		g.refresh()
		pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
		pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
		assert.Equal(t, PhaseRefill, g.phase)
		assert.Equal(t, 0, countKind(g, Place))
		assert.Equal(t, 1, int(g.hands[0][Purple]))
	})
	t.Run("stopping after one piece is allowed", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, Frankreich, 1)
		setHand(t, g, 0, Purple, Purple, Red)
		g.refresh()
		pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
		pick(t, g, StopOption())
		assert.Equal(t, PhaseRefill, g.phase)
		assert.Equal(t, 1, g.table.MonasteriesIn(Frankreich)-1)
	})
}

func TestK3_EmptyCountryTakesOneMonastery(t *testing.T) {
	g := position(t, 3)
	setHand(t, g, 0, Purple, Purple, Purple)
	g.refresh()
	for _, p := range placements(g) {
		assert.False(t, p.Advisor(), "no advisor goes into an empty board")
	}
	pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
	assert.Equal(t, PhaseRefill, g.phase, "only one piece in a country that was empty")
	assert.Equal(t, 2, int(g.hands[0][Purple]))

	// The same cards in a country that already has a piece allow a second one.
	h := position(t, 3)
	monasteries(t, h, 2, Frankreich, 1)
	setHand(t, h, 0, Purple, Purple, Purple)
	h.refresh()
	pick(t, h, mon(Frankreich, firstFree(h, Frankreich), Purple))
	assert.Equal(t, PhaseSecond, h.phase)
	assert.True(t, has(h, adv(Frankreich, Purple)))
}

func TestK4_SpacesAndAdvisorCap(t *testing.T) {
	t.Run("monasteries only on free spaces; a full country takes none", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, Schwaben, 3)
		setHand(t, g, 0, Orange, Orange, Green)
		g.refresh()
		var spaces []int
		for _, p := range placements(g) {
			if p.Country == Schwaben && !p.Advisor() && !p.Joker {
				spaces = append(spaces, p.Space)
			}
		}
		assert.Equal(t, []int{firstFree(g, Schwaben)}, spaces, "one free space of four")
		monasteries(t, g, 2, Schwaben, 1)
		g.refresh()
		for _, p := range placements(g) {
			if p.Country == Schwaben {
				assert.True(t, p.Advisor(), "Schwaben is full")
			}
		}
	})
	t.Run("advisors never exceed the biggest monastery count", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, Bayern, 2)
		monasteries(t, g, 2, Bayern, 2)
		advisors(t, g, 1, Bayern, 1)
		setHand(t, g, 0, Green, Green, Green)
		g.refresh()
		pick(t, g, adv(Bayern, Green))
		require.Equal(t, PhaseSecond, g.phase)
		assert.False(t, has(g, adv(Bayern, Green)), "two advisors for a majority of two")
		assert.True(t, has(g, mon(Bayern, firstFree(g, Bayern), Green)))
		assert.Equal(t, 2, g.table.AdvisorCap(Bayern))
	})
	t.Run("advisors go where the player owns no monastery", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 1, England, 1)
		setHand(t, g, 0, Orange, Red, Green)
		g.refresh()
		assert.True(t, has(g, adv(England, Orange)))
	})
}

func TestK5_PieceSupplies(t *testing.T) {
	g := position(t, 3)
	monasteries(t, g, 1, Frankreich, 2)
	setHand(t, g, 0, Purple, Purple, Red)
	g.monSupply[0] = 0
	g.refresh()
	ps := placements(g)
	require.NotEmpty(t, ps)
	for _, p := range ps {
		assert.True(t, p.Advisor(), "no monasteries left")
	}
	g.advSupply[0] = 0
	g.refresh()
	assert.Empty(t, placements(g), "no pieces left: only exchanges")
	assert.Positive(t, countKind(g, Exchange))
}

func TestK6_RefillFromFaceUpAndPile(t *testing.T) {
	g := position(t, 3)
	monasteries(t, g, 1, Frankreich, 1)
	setHand(t, g, 0, Purple, Purple, Purple)
	setFaceUp(t, g, Green, Yellow)
	g.refresh()
	pile := g.pileLen
	pick(t, g, PlaceOption(Frankreich, firstFree(g, Frankreich), Purple, true))
	pick(t, g, mon(Frankreich, firstFree(g, Frankreich), Purple))
	require.Equal(t, PhaseRefill, g.phase)
	assert.ElementsMatch(t, describeAllOpts(TakeOption(FromPile), TakeOption(int(Green)), TakeOption(int(Yellow))), describeAll(g))
	pick(t, g, TakeOption(int(Green)))
	pick(t, g, TakeOption(int(Yellow)))
	// Both face-up cards are gone; the third card can only come from the pile.
	assert.Equal(t, []engine.Option{TakeOption(FromPile)}, g.Options())
	assert.Equal(t, 0, g.faceUpSize(), "the face-up pair is refilled only after the hand")
	pick(t, g, TakeOption(FromPile))
	assert.Equal(t, HandSize, g.handSize(0))
	assert.Equal(t, FaceUpSize, g.faceUpSize())
	assert.Equal(t, int(pile)-3, int(g.pileLen), "one card to the hand, two to the face-up pair")
	assert.Equal(t, 1, g.ToMove(), "the turn has passed")
}

func describeAllOpts(os ...engine.Option) []string {
	g := &Game{board: DefaultBoard()}
	var s []string
	for _, o := range os {
		s = append(s, g.Describe(o))
	}
	return s
}

func TestK7_ExchangeExactlyOneCard(t *testing.T) {
	g := position(t, 3)
	g.monSupply[0], g.advSupply[0] = 0, 0 // nothing to place: the exchange is the only way
	setHand(t, g, 0, Red, Red, Purple)
	setFaceUp(t, g, Green, Green)
	g.refresh()
	for _, o := range g.Options() {
		assert.Equal(t, Exchange, OptionKind(o.Kind), "no doing nothing: %s", g.Describe(o))
	}
	assert.ElementsMatch(t, describeAllOpts(
		ExchangeOption(Red, FromPile), ExchangeOption(Red, int(Green)),
		ExchangeOption(Purple, FromPile), ExchangeOption(Purple, int(Green))), describeAll(g))
	pile := g.pileLen
	pick(t, g, ExchangeOption(Purple, int(Green)))
	assert.Equal(t, [NumKinds]uint8{Red: 2, Green: 1}, g.hands[0])
	assert.Equal(t, 1, int(g.discard[Purple]))
	assert.Equal(t, FaceUpSize, g.faceUpSize(), "the taken face-up card is replaced")
	assert.Equal(t, int(pile)-1, int(g.pileLen))
	assert.Equal(t, 1, g.ToMove(), "the exchange is the whole turn")
}

func TestK8_InterimScoringOnceAndReshuffle(t *testing.T) {
	g := position(t, 3)
	monasteries(t, g, 1, Frankreich, 3)
	monasteries(t, g, 2, Frankreich, 1)
	monasteries(t, g, 0, Schwaben, 2)
	setHand(t, g, 0, Orange, Orange, Orange)
	setFaceUp(t, g, Red, Green)
	setPile(g, 1)
	g.refresh()
	discard := sum(g.discard[:])
	faceUp := g.faceUp
	// Two pieces in Schwaben with all three cards, then refill: the first draw takes
	// the pile's last card.
	pick(t, g, mon(Schwaben, firstFree(g, Schwaben), Orange))
	pick(t, g, PlaceOption(Schwaben, firstFree(g, Schwaben), Orange, true))
	want := g.table.MonasteryPoints(3)
	assert.False(t, g.InterimDone(), "the pile has not run out yet")
	pick(t, g, TakeOption(FromPile))
	require.Len(t, eventsOf(g, EvInterim), 1)
	assert.True(t, g.InterimDone(), "the interim scoring is held")
	assert.True(t, g.View(0).(*View).InterimDone, "and every seat's view says so")
	assert.Equal(t, [MaxPlayers]int16{int16(want[0]), int16(want[1]), int16(want[2])}, g.score)
	assert.Equal(t, int16(4), g.score[0], "Schwaben: 4 monasteries, all hers")
	assert.Equal(t, int16(4), g.score[1], "Frankreich 3/1: 4 and 3")
	assert.Equal(t, int16(3), g.score[2])
	assert.Equal(t, discard+3, int(g.pileLen), "the discard pile, with this turn's cards, is the new pile")
	assert.Zero(t, sum(g.discard[:]))
	assert.Equal(t, faceUp, g.faceUp, "the face-up pair is not reshuffled")
	assert.Equal(t, PhaseRefill, g.phase, "the player finishes refilling")
	pick(t, g, TakeOption(FromPile))
	pick(t, g, TakeOption(FromPile))
	assert.Equal(t, 1, g.ToMove())

	// The pile running out again is not a second interim scoring.
	g.exhaustions = 1
	setPile(g, 1)
	g.monSupply[1], g.advSupply[1] = 0, 0
	g.refresh()
	pick(t, g, ExchangeOption(firstHeld(g, 1), FromPile))
	assert.Len(t, eventsOf(g, EvInterim), 1)
	assert.Len(t, eventsOf(g, EvLastRound), 1)
}

func firstHeld(g *Game, seat int) Kind {
	for k := Kind(0); k < NumKinds; k++ {
		if g.hands[seat][k] > 0 {
			return k
		}
	}
	return NumKinds
}

func TestK9_MonasteryScoringPlaces(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []int
		want   [MaxPlayers]int
	}{
		{"a lone owner scores the total", []int{3, 0, 0, 0, 0}, [MaxPlayers]int{3}},
		{"every place scores the count above it", []int{4, 3, 1, 0, 0}, [MaxPlayers]int{8, 4, 3}},
		{"tied firsts share; the next is second", []int{2, 2, 1, 0, 0}, [MaxPlayers]int{5, 5, 2}},
		{"tied seconds share; the next is third", []int{3, 2, 2, 1, 0}, [MaxPlayers]int{8, 3, 3, 2}},
		{"all tied score the total", []int{1, 1, 1, 1, 1}, [MaxPlayers]int{5, 5, 5, 5, 5}},
		{"no monastery, no points", []int{0, 0, 5, 0, 1}, [MaxPlayers]int{2: 6, 4: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, 5)
			for s, n := range tc.counts {
				monasteries(t, g, s, Frankreich, n)
			}
			assert.Equal(t, tc.want, g.table.CountryPoints(Frankreich, 5))
		})
	}
	t.Run("countries are scored in the board's order", func(t *testing.T) {
		g := position(t, 3)
		monasteries(t, g, 0, Burgund, 1)
		monasteries(t, g, 1, England, 1)
		g.scoreMonasteries()
		es := eventsOf(g, EvCountryScore)
		require.Len(t, es, 2)
		assert.Equal(t, int16(England), es[0].B, "England is scored first, Burgund last")
		assert.Equal(t, int16(Burgund), es[1].B)
	})
}

func TestK10_GameEnd(t *testing.T) {
	t.Run("after the second run-out the round is finished, then final scoring", func(t *testing.T) {
		g := position(t, 4)
		g.start = 1
		g.beginTurn(2)
		g.exhaustions = 1
		setPile(g, 1)
		monasteries(t, g, 0, Bayern, 4) // a chain of four: scored only at the end
		g.refresh()
		pick(t, g, ExchangeOption(firstHeld(g, 2), FromPile))
		require.True(t, g.exhaustions >= 2)
		require.False(t, g.Terminal())
		// Seats 3 and 0 still play; seat 0 sits to the right of the start player 1.
		var turns []int
		for !g.Terminal() {
			s := g.ToMove()
			if g.phase == PhaseTurn {
				turns = append(turns, s)
			}
			require.NoError(t, g.Apply(g.Fallback()))
		}
		assert.Equal(t, []int{3, 0}, turns)
		assert.Len(t, eventsOf(g, EvGameOver), 1)
		assert.Len(t, eventsOf(g, EvChainScore), 1)
		assert.Equal(t, 4+4, int(g.score[0]), "Bayern majority 4 and the chain of 4")
	})
	t.Run("the last seat of the round ends the game at once", func(t *testing.T) {
		g := position(t, 3)
		g.start = 1
		g.beginTurn(0)
		g.exhaustions = 1
		setPile(g, 1)
		g.refresh()
		pick(t, g, ExchangeOption(firstHeld(g, 0), FromPile))
		assert.True(t, g.Terminal())
	})
	t.Run("when no player can place any piece the game ends", func(t *testing.T) {
		g := position(t, 3)
		// Seat 0 owns England's only monastery (cap 1) and has one advisor left; nobody
		// has anything else to place.
		monasteries(t, g, 0, England, 1)
		for s := 0; s < 3; s++ {
			g.monSupply[s], g.advSupply[s] = 0, 0
		}
		g.advSupply[0] = 1
		g.refresh()
		require.True(t, g.anyoneCanPlace())
		setHand(t, g, 0, Orange, Red, Red)
		g.refresh()
		pick(t, g, adv(England, Orange))
		for !g.Terminal() && g.ToMove() == 0 {
			require.NoError(t, g.Apply(0))
		}
		assert.True(t, g.Terminal())
		es := eventsOf(g, EvGameOver)
		require.Len(t, es, 1)
		assert.Equal(t, int16(1), es[0].A, "ended because nobody can place")
	})
}

func TestK11_Alliances(t *testing.T) {
	g := position(t, 4)
	// England-Frankreich (1): seats 0 and 1 tie in England and both lead Frankreich.
	advisors(t, g, 0, England, 1)
	advisors(t, g, 1, England, 1)
	advisors(t, g, 0, Frankreich, 2)
	advisors(t, g, 1, Frankreich, 2)
	advisors(t, g, 2, Frankreich, 1)
	assert.Equal(t, [MaxPlayers]int{7, 7, 0, 0}, g.table.AlliancePoints(g.board.Alliances()[0], 4),
		"tied leaders both score every advisor of both countries")
	// Frankreich-Lothringen (3): nobody has advisors in Lothringen, so nobody scores.
	assert.Equal(t, [MaxPlayers]int{}, g.table.AlliancePoints(g.board.Alliances()[2], 4))
	// A country counts in every alliance it is part of: England-Lothringen (2) too
	// once seat 0 leads Lothringen.
	advisors(t, g, 0, Lothringen, 1)
	all := g.table.AllAlliancePoints(g.board, 4)
	// Alliance 1: 0 and 1 score 7; alliance 2 (England 2, Lothringen 1): seat 0 scores
	// 3; alliance 3 (Frankreich 5, Lothringen 1): seat 0 scores 6.
	assert.Equal(t, [MaxPlayers]int{7 + 3 + 6, 7, 0, 0}, all)
}

func TestK12_Chains(t *testing.T) {
	g := position(t, 3)
	// A line of three in England scores nothing.
	for _, n := range []int{1, 2, 3} {
		monasteryAt(t, g, 0, n-1)
	}
	assert.Equal(t, 0, g.table.ChainPoints(g.board, 0))
	// Frankreich 6-7-8-9 and 6-9 make a cycle of four; joined to England 4 it gives a
	// path 3-4-6-7-8-9 of six (1 and 2 too: 1-2-3-4-6-7-8-9 is eight).
	for _, n := range []int{4, 6, 7, 8, 9} {
		monasteryAt(t, g, 0, n-1)
	}
	assert.Equal(t, []int{8}, g.table.Chains(g.board, 0, nil))
	// A separate group of seat 0 in Italien scores on its own; seat 1 blocks nothing
	// of it.
	for _, n := range []int{49, 50, 51, 52} {
		monasteryAt(t, g, 0, n-1)
	}
	monasteryAt(t, g, 1, 53-1)
	assert.Equal(t, []int{8, 4}, g.table.Chains(g.board, 0, nil))
	assert.Equal(t, 12, g.table.ChainPoints(g.board, 0))
	// An opponent's monastery breaks a line: 1-2-3-[4 of seat 1]-... leaves 3 and 5.
	h := position(t, 3)
	for _, n := range []int{1, 2, 3, 6, 7, 8, 11} {
		monasteryAt(t, h, 0, n-1)
	}
	monasteryAt(t, h, 1, 4-1)
	assert.Equal(t, []int{3, 4}, h.table.Chains(h.board, 0, nil), "6-7-8-11")
}

func TestK13_TiesGoToTheBiggerSupply(t *testing.T) {
	g := position(t, 4)
	g.score = [MaxPlayers]int16{10, 10, 10, 12}
	g.monSupply = [MaxPlayers]uint8{5, 6, 6, 0}
	g.advSupply = [MaxPlayers]uint8{3, 2, 2, 0}
	g.end()
	r := g.Result()
	// Seat 3 leads on points; seats 1 and 2 have 8 pieces as seat 0, all tied.
	assert.Equal(t, []int{1, 1, 1, 0}, r.Place)
	g.advSupply[0] = 2
	r = g.Result()
	assert.Equal(t, []int{3, 1, 1, 0}, r.Place, "seat 0 has fewer pieces left")
	assert.Equal(t, []int{10, 10, 10, 12}, r.Score)
}

func TestK14_DecisionBound(t *testing.T) {
	g := position(t, 3)
	monasteries(t, g, 1, Bayern, 4) // would score a chain and majorities in a final scoring
	g.score = [MaxPlayers]int16{3, 1, 2}
	g.decisions = MaxDecisions - 1
	g.refresh()
	require.NoError(t, g.Apply(g.Fallback()))
	assert.True(t, g.Terminal())
	r := g.Result()
	assert.True(t, r.Adjudicated)
	assert.Equal(t, []int{3, 1, 2}, r.Score, "the score as it stands, no final scoring")
	assert.Equal(t, []int{0, 2, 1}, r.Place)
	assert.Equal(t, engine.NoSeat, g.ToMove())
	assert.Empty(t, g.Options())
	assert.Equal(t, MaxDecisions, Spec().MaxDecisions)
	assert.Equal(t, 5000, MaxDecisions)
}
