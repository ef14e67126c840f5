package ismcts

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// kardinalPosition builds a three-player game with seat 0 to start its turn on table
// tab, holding hand (three cards), through the sampler: the other hands and the pile are
// drawn from the remaining cards.
func kardinalPosition(t *testing.T, tab kardinal.Table, hand [kardinal.NumKinds]uint8) *kardinal.Game {
	v := &kardinal.View{
		Players: 3, Board: kardinal.DefaultBoard(), Table: tab, Hand: hand,
		HandSizes: [kardinal.MaxPlayers]int{3, 3, 3}, Removed: kardinal.Removed(3),
		TurnCountry: kardinal.NoCountry, Phase: kardinal.PhaseTurn,
		DrawPile: 45 - 9,
	}
	for s := 0; s < 3; s++ {
		v.Monasteries[s], v.Advisors[s] = kardinal.MonasteriesPerPlayer, kardinal.AdvisorsPerPlayer
		for c := kardinal.Country(0); c < kardinal.NumCountries; c++ {
			v.Monasteries[s] -= int(tab.Monasteries[c][s])
			v.Advisors[s] -= int(tab.Advisors[c][s])
		}
	}
	r := engine.NewRand(1)
	g, err := kardinal.Sampler().Sample(nil, v, nil, &r)
	require.NoError(t, err)
	return g.(*kardinal.Game)
}

// greedyChoices is every placement KardinalGreedy picks from g over many seeds.
func greedyChoices(t *testing.T, g *kardinal.Game) []kardinal.Placement {
	var got []kardinal.Placement
	for seed := uint64(0); seed < 30; seed++ {
		r := engine.NewRand(seed)
		i := KardinalGreedy(g, &r)
		require.True(t, i >= 0 && i < len(g.Options()))
		p, ok := kardinal.AsPlacement(g.Options()[i])
		require.True(t, ok, "a placement is listed, so the greedy places")
		got = append(got, p)
	}
	return got
}

// TestKardinalGreedyTakesTheMajority: seats 0 and 1 tie with two monasteries in
// Franken; seat 0 holds one card each of Franken/Aragon, Bayern/Burgund and
// Lothringen/Italien. A monastery in Franken takes the lead (+1.5 points ahead of the
// mean opponent, twice before the interim scoring), one in an empty country only +1:
// the greedy always builds in Franken, and a monastery, not an advisor (an advisor
// there completes no alliance).
func TestKardinalGreedyTakesTheMajority(t *testing.T) {
	b := kardinal.DefaultBoard()
	var tab kardinal.Table
	spaces := b.SpacesOf(kardinal.Franken)
	tab.PlaceMonastery(b, 0, int(spaces[0]))
	tab.PlaceMonastery(b, 1, int(spaces[2]))
	tab.PlaceMonastery(b, 0, int(spaces[4]))
	tab.PlaceMonastery(b, 1, int(spaces[5]))
	g := kardinalPosition(t, tab, [kardinal.NumKinds]uint8{kardinal.Red: 1, kardinal.Green: 1, kardinal.Yellow: 1})
	for _, p := range greedyChoices(t, g) {
		assert.Equal(t, kardinal.Franken, p.Country)
		assert.False(t, p.Advisor())
	}
}

// TestKardinalGreedyExtendsAChain: seat 0 alone has a monastery in Frankreich, on a
// space whose roads all stay in Frankreich, and holds one Frankreich card and two
// cards of other countries. Every monastery gains the same majority points (+1 ahead,
// twice), so the part credit for joining its own monastery by road decides: the greedy
// builds next to it, each such space about as often.
func TestKardinalGreedyExtendsAChain(t *testing.T) {
	b := kardinal.DefaultBoard()
	own := -1
	for _, sp := range b.SpacesOf(kardinal.Frankreich) {
		inside := true
		for _, z := range b.Roads(int(sp)) {
			inside = inside && b.CountryOf(int(z)) == kardinal.Frankreich
		}
		if inside && len(b.Roads(int(sp))) >= 2 {
			own = int(sp)
			break
		}
	}
	require.GreaterOrEqual(t, own, 0, "the default board has an inland Frankreich space")
	var tab kardinal.Table
	tab.PlaceMonastery(b, 0, own)
	g := kardinalPosition(t, tab, [kardinal.NumKinds]uint8{kardinal.Purple: 1, kardinal.Green: 1, kardinal.Yellow: 1})
	seen := map[int]int{}
	for _, p := range greedyChoices(t, g) {
		require.Equal(t, kardinal.Frankreich, p.Country)
		require.False(t, p.Advisor())
		assert.Contains(t, b.Roads(own), uint8(p.Space), "space %d is not next to space %d", p.Space, own)
		seen[p.Space]++
	}
	assert.Len(t, seen, len(b.Roads(own)), "ties are broken at random: %v", seen)
}

// TestKardinalGreedyPlaysLegally: through whole games, the greedy answers a legal option
// and a placement whenever one is listed; in another game it is uniform and legal.
func TestKardinalGreedyPlaysLegally(t *testing.T) {
	r := engine.NewRand(3)
	for _, n := range []int{3, 4, 5} {
		g, err := engine.New("kardinal", uint64(n), n)
		require.NoError(t, err)
		for !g.Terminal() {
			opts := g.Options()
			canPlace := false
			for _, o := range opts {
				canPlace = canPlace || kardinal.OptionKind(o.Kind) == kardinal.Place
			}
			i := KardinalGreedy(g, &r)
			require.True(t, i >= 0 && i < len(opts))
			if canPlace {
				require.Equal(t, kardinal.Place, kardinal.OptionKind(opts[i].Kind))
			}
			require.NoError(t, g.Apply(i))
		}
	}
	g := midGame(t, "ninjas", 4, 5)
	i := KardinalGreedy(g, &r)
	assert.True(t, i >= 0 && i < len(g.Options()))
}

// TestKardinalRolloutByPlayers: Kardinal's default play-out, as a search resolves it
// for its table, answers what KardinalGreedy answers, for the same random draws, with
// four players, and what KardinalPlacer answers with three and five. The positions are
// chosen where the two differ.
func TestKardinalRolloutByPlayers(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		s, err := NewSearch(kardinal.Name, nil, 1, Config{Iterations: 1})
		require.NoError(t, err)
		g := midGame(t, "kardinal", n, 10)
		seat := g.ToMove()
		_, err = s.Choose(g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options(), time.Time{})
		require.NoError(t, err)
		differ := 0
		for d := 10; d < 60; d++ {
			g := midGame(t, "kardinal", n, d)
			if g.Terminal() {
				break
			}
			want := KardinalPlacer
			if n == 4 {
				want = KardinalGreedy
			}
			r1, r2, r3 := engine.NewRand(uint64(d)), engine.NewRand(uint64(d)), engine.NewRand(uint64(d))
			got, greedy, placer := s.cfg.Rollout(g, &r1), KardinalGreedy(g, &r2), KardinalPlacer(g, &r3)
			r4 := engine.NewRand(uint64(d))
			require.Equal(t, want(g, &r4), got, "%d players, decision %d", n, d)
			if greedy != placer {
				differ++
			}
		}
		assert.Positive(t, differ, "%d players: these positions do not tell the play-outs apart", n)
	}
}
