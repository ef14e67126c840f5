package heuristic

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ninjasScore plays one deal per seat of the heuristic (a rotation: the heuristic takes
// every seat in turn against random players on the same deal) and returns its score in
// each game: the share of opponents it placed ahead of, ties counting half, so that
// equal players score 0.5 whatever the table size.
func ninjasScores(t testing.TB, players int, deals int, seed uint64) []float64 {
	var scores []float64
	for d := 0; d < deals; d++ {
		for h := 0; h < players; h++ {
			g, err := ninjas.New(seed+uint64(d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = random.New(seed ^ uint64(d*64+s+1))
			}
			seats[h] = Ninjas()
			require.NoError(t, engine.PlayOut(g, seats))
			place := g.Result().Place
			sc := 0.0
			for o := 0; o < players; o++ {
				switch {
				case o == h:
				case place[h] < place[o]:
					sc++
				case place[h] == place[o]:
					sc += 0.5
				}
			}
			scores = append(scores, sc/float64(players-1))
		}
	}
	return scores
}

func ninjasMeanCI(x []float64) (mean, half float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(len(x)-1))
	return mean, 1.96 * sd / math.Sqrt(float64(len(x)))
}

// TestNinjasBeatsRandom: against random players the heuristic's score must clear 0.5
// (what an equal player scores) by a wide margin, at two and at more players.
func TestNinjasBeatsRandom(t *testing.T) {
	for _, c := range []struct{ players, deals int }{{2, 100}, {3, 40}, {4, 30}, {6, 20}} {
		scores := ninjasScores(t, c.players, c.deals, 1000)
		m, ci := ninjasMeanCI(scores)
		t.Logf("%d players: %d games, score %.3f ± %.3f", c.players, len(scores), m, ci)
		assert.Greater(t, m-ci, 0.7, "%d players: the heuristic must clearly beat random", c.players)
	}
}

// TestNinjasMeasure reports the heuristic's score over many games with a 95% confidence
// interval. It runs only when NINJAS_MEASURE is set to the number of deals per table
// size (each deal is played once per seat):
//
//	NINJAS_MEASURE=100 go test -run TestNinjasMeasure -v ./plugins/heuristic/
func TestNinjasMeasure(t *testing.T) {
	deals, err := strconv.Atoi(os.Getenv("NINJAS_MEASURE"))
	if err != nil || deals <= 0 {
		t.Skip("set NINJAS_MEASURE=<deals per table size> to measure")
	}
	var all []float64
	for players := 2; players <= 6; players++ {
		s := ninjasScores(t, players, deals, 77_000)
		m, ci := ninjasMeanCI(s)
		t.Logf("%d players: %5d games, score %.3f ± %.3f", players, len(s), m, ci)
		all = append(all, s...)
	}
	m, ci := ninjasMeanCI(all)
	t.Logf("all: %d games, score %.3f ± %.3f (95%% CI; 0.5 is an equal player)", len(all), m, ci)
}

func TestNinjasChoosesSensibly(t *testing.T) {
	p := Ninjas()
	pick := func(g *ninjas.Game) ninjas.Play {
		s := g.ToMove()
		i := p.Choose(g.View(s), nil, g.Options())
		require.True(t, i >= 0 && i < len(g.Options()))
		return ninjas.ReadOption(g.Options()[i])
	}
	// Played to the end, every choice is legal and the game finishes.
	g, err := ninjas.New(3, 4)
	require.NoError(t, err)
	seats := []engine.Policy{p, p, p, p}
	require.NoError(t, engine.PlayOut(g, seats))
	assert.True(t, g.Terminal())

	// Not a ninjas view: the fallback option.
	assert.Equal(t, 0, p.Choose(nil, nil, []engine.Option{{}, {}}))

	// On the first turn of a fresh game the heuristic acts or discards its cheapest card.
	g, _ = ninjas.New(9, 2)
	first := pick(g)
	assert.Contains(t, []ninjas.OptionKind{ninjas.PlayAttack, ninjas.PlayFortify, ninjas.DiscardCard}, first.Kind)
}

func ninjasOpt(k ninjas.OptionKind, card ninjas.Kind, target, count, jester int) engine.Option {
	return engine.Option{Kind: uint8(k), A: int16(card), B: int16(target), C: int16(count), D: int16(jester)}
}

// ninjasView is a hand-made view of seat 0 on its turn at a 3-player table.
func ninjasView(gems [3]int, hand ...ninjas.Kind) *ninjas.View {
	v := &ninjas.View{Seat: 0, Players: 3, Phase: ninjas.PhaseAction, TurnSeat: 0, Target: -1, Hit: -1,
		WindowHolder: -1, Pending: ninjas.Pending{Kind: ninjas.NoKind}}
	for s := range v.Forts {
		v.Forts[s] = [ninjas.NumForts]ninjas.Kind{ninjas.NoKind, ninjas.NoKind, ninjas.NoKind}
	}
	for s, n := range gems {
		v.Gems[s] = n
		v.HandSizes[s] = 3
	}
	for _, k := range hand {
		v.Hand[k]++
	}
	v.HandSizes[0] = len(hand)
	return v
}

func TestNinjasStrategy(t *testing.T) {
	p := Ninjas()
	t.Run("attacks the leader", func(t *testing.T) {
		v := ninjasView([3]int{5, 3, 7}, ninjas.Soldier)
		opts := []engine.Option{
			ninjasOpt(ninjas.DiscardCard, ninjas.Soldier, -1, -1, -1),
			ninjasOpt(ninjas.PlayAttack, ninjas.Soldier, 1, 1, 0),
			ninjasOpt(ninjas.PlayAttack, ninjas.Soldier, 2, 1, 0),
		}
		assert.Equal(t, 2, p.Choose(v, nil, opts))
	})
	t.Run("fortifies when rich", func(t *testing.T) {
		v := ninjasView([3]int{8, 4, 3}, ninjas.Castle, ninjas.Peasant)
		opts := []engine.Option{
			ninjasOpt(ninjas.DiscardCard, ninjas.Peasant, -1, -1, -1),
			ninjasOpt(ninjas.DiscardCard, ninjas.Castle, -1, -1, -1),
			ninjasOpt(ninjas.PlayAttack, ninjas.Peasant, 1, 1, 0),
			ninjasOpt(ninjas.PlayFortify, ninjas.Castle, -1, -1, 0),
		}
		assert.Equal(t, 3, p.Choose(v, nil, opts))
	})
	t.Run("keeps an Executioner for a big attack", func(t *testing.T) {
		opts := []engine.Option{
			ninjasOpt(ninjas.NoResponse, ninjas.NoKind, -1, -1, -1),
			ninjasOpt(ninjas.PlayResponse, ninjas.Executioner, -1, 1, 0),
		}
		v := ninjasView([3]int{5, 5, 5}, ninjas.Executioner)
		v.Phase, v.TurnSeat, v.Target, v.Hit, v.ToMove = ninjas.PhaseRespond, 1, 0, 0, 0
		v.Pending = ninjas.Pending{Kind: ninjas.Peasant, Count: 1}
		assert.Equal(t, 0, p.Choose(v, nil, opts), "not against one Peasant")
		v.Pending = ninjas.Pending{Kind: ninjas.King, Count: 1}
		assert.Equal(t, 1, p.Choose(v, nil, opts), "against a King")
	})
	t.Run("holds a Highwayman for a big swing", func(t *testing.T) {
		opts := []engine.Option{
			ninjasOpt(ninjas.LetGemsGo, ninjas.NoKind, -1, -1, -1),
			ninjasOpt(ninjas.PlayHighwayman, ninjas.Highwayman, -1, 1, 0),
		}
		v := ninjasView([3]int{5, 6, 4}, ninjas.Highwayman)
		v.Phase, v.TurnSeat, v.ToMove, v.WindowHolder, v.WindowGems = ninjas.PhaseHighwayman, 1, 0, 1, 1
		assert.Equal(t, 0, p.Choose(v, nil, opts), "one gem is not worth it")
		v.WindowGems, v.Gems[1], v.Gems[2] = 3, 8, 2
		assert.Equal(t, 1, p.Choose(v, nil, opts), "three gems are")
	})
}
