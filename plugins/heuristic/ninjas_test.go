package heuristic

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
