package heuristic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

func TestKardinalIgnoresForeignViews(t *testing.T) {
	assert.Equal(t, 0, Kardinal().Choose(nil, nil, []engine.Option{{}, {}}))
}

// A hand-made position for the policy: seat 0 of 3 on turn, the default board.
func kardinalView() *kardinal.View {
	v := &kardinal.View{Seat: 0, Players: 3, Board: kardinal.DefaultBoard(), Phase: kardinal.PhaseTurn,
		TurnCountry: kardinal.NoCountry, DrawPile: 20}
	for s := 0; s < 3; s++ {
		v.Monasteries[s], v.Advisors[s] = kardinal.MonasteriesPerPlayer, kardinal.AdvisorsPerPlayer
	}
	return v
}

// space is the 0-based index of a board-file space number.
func space(n int) int { return n - 1 }

func chosen(v *kardinal.View, opts ...engine.Option) engine.Option {
	return opts[Kardinal().Choose(v, nil, opts)]
}

func TestKardinalPolicyPlaysSensibly(t *testing.T) {
	b := kardinal.DefaultBoard()
	t.Run("breaking a tie for first beats padding a safe lead", func(t *testing.T) {
		v := kardinalView()
		// Frankreich: seats 0 and 1 tie at 2; England: seat 0 leads 2 to 1.
		v.Table.PlaceMonastery(b, 1, space(6))
		v.Table.PlaceMonastery(b, 1, space(8))
		v.Table.PlaceMonastery(b, 0, space(10))
		v.Table.PlaceMonastery(b, 0, space(13))
		v.Table.PlaceMonastery(b, 0, space(1))
		v.Table.PlaceMonastery(b, 0, space(5))
		v.Table.PlaceMonastery(b, 1, space(3))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Purple: 1, kardinal.Orange: 1}
		tie := kardinal.PlaceOption(kardinal.Frankreich, space(11), kardinal.Purple, false)
		pad := kardinal.PlaceOption(kardinal.England, space(2), kardinal.Orange, false)
		assert.Equal(t, tie, chosen(v, pad, tie))
	})
	t.Run("second place behind a big leader pays its count", func(t *testing.T) {
		v := kardinalView()
		for _, n := range []int{14, 15, 16} {
			v.Table.PlaceMonastery(b, 1, space(n))
		}
		v.Table.PlaceMonastery(b, 0, space(1))
		v.Table.PlaceMonastery(b, 0, space(2))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Red: 1, kardinal.Orange: 1}
		// Second in Aragon scores 3 (twice); a third monastery in England alone adds 1.
		second := kardinal.PlaceOption(kardinal.Aragon, space(18), kardinal.Red, false)
		more := kardinal.PlaceOption(kardinal.England, space(4), kardinal.Orange, false)
		assert.Equal(t, second, chosen(v, more, second))
	})
	t.Run("one card rather than a joker for the same placement", func(t *testing.T) {
		v := kardinalView()
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Purple: 2, kardinal.Red: 1}
		single := kardinal.PlaceOption(kardinal.Franken, space(35), kardinal.Red, false)
		joker := kardinal.PlaceOption(kardinal.Franken, space(35), kardinal.Purple, true)
		assert.Equal(t, single, chosen(v, joker, single))
	})
	t.Run("an advisor that completes an alliance", func(t *testing.T) {
		v := kardinalView()
		v.Phase = kardinal.PhaseSecond
		v.TurnCountry = kardinal.Burgund
		for _, n := range []int{47, 48} {
			v.Table.PlaceMonastery(b, 1, space(n))
		}
		for _, n := range []int{25, 26} {
			v.Table.PlaceMonastery(b, 2, space(n))
		}
		v.Table.PlaceAdvisor(kardinal.Italien, 0)
		v.Table.PlaceAdvisor(kardinal.Italien, 0)
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Green: 1}
		advisor := kardinal.PlaceOption(kardinal.Burgund, kardinal.NoSpace, kardinal.Green, false)
		assert.Equal(t, advisor, chosen(v, kardinal.StopOption(), advisor))
	})
	t.Run("a monastery that extends a chain", func(t *testing.T) {
		v := kardinalView()
		for _, n := range []int{41, 42, 43} {
			v.Table.PlaceMonastery(b, 0, space(n))
		}
		v.Table.PlaceMonastery(b, 1, space(45))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Green: 1}
		chain := kardinal.PlaceOption(kardinal.Bayern, space(44), kardinal.Green, false) // 43-44: four in a line
		apart := kardinal.PlaceOption(kardinal.Bayern, space(46), kardinal.Green, false)
		assert.Equal(t, chain, chosen(v, apart, chain))
	})
	t.Run("a refill that makes a pair", func(t *testing.T) {
		v := kardinalView()
		v.Phase = kardinal.PhaseRefill
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Yellow: 1}
		v.FaceUp = [kardinal.NumKinds]uint8{kardinal.Yellow: 1, kardinal.Orange: 1}
		pair := kardinal.TakeOption(int(kardinal.Yellow))
		got := chosen(v, kardinal.TakeOption(kardinal.FromPile), kardinal.TakeOption(int(kardinal.Orange)), pair)
		assert.Equal(t, pair, got)
	})
}

func TestKardinalSelfPlayEnds(t *testing.T) {
	for players := 3; players <= 5; players++ {
		for seed := uint64(0); seed < 10; seed++ {
			g, err := kardinal.New(seed, players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = Kardinal()
			}
			require.NoError(t, engine.PlayOut(g, seats))
			r := g.Result()
			require.False(t, r.Adjudicated)
			if seed == 0 {
				t.Logf("%d players: %d decisions, scores %v, places %v", players, g.Decisions(), r.Score, r.Place)
			}
		}
	}
}

// TestKardinalLead: a seat's points less the mean of the others', over the first
// players seats only.
func TestKardinalLead(t *testing.T) {
	pts := [kardinal.MaxPlayers]int{5, 2, 4, 9, 9}
	if got := KardinalLead(pts, 0, 3); got != 2 {
		t.Errorf("KardinalLead of seat 0 of 3 = %v, want 5 - (2+4)/2 = 2", got)
	}
	if got := KardinalLead(pts, 1, 4); got != -4 {
		t.Errorf("KardinalLead of seat 1 of 4 = %v, want 2 - (5+4+9)/3 = -4", got)
	}
}
