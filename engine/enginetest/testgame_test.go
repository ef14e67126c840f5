package enginetest

import (
	"errors"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlaysToTheEndAndRanksByStonesPlusBonus(t *testing.T) {
	for players := 2; players <= MaxPlayers; players++ {
		g, err := engine.New(Name, uint64(players), players)
		require.NoError(t, err)
		require.NoError(t, engine.PlayOut(g, policies(players)))
		tg := g.(*Game)
		res := g.Result()
		total := 0
		for s := 0; s < players; s++ {
			total += tg.taken[s]
			assert.Equal(t, tg.taken[s]+tg.bonus[s], res.Score[s])
		}
		assert.GreaterOrEqual(t, total, 10, "every stone of the pile is taken")
		assert.Equal(t, engine.PlacesByScore(res.Score, engine.NoSeat), res.Place)
	}
}

func TestIllegalChoiceLeavesStateUnchanged(t *testing.T) {
	g, err := New(7, 3)
	require.NoError(t, err)
	before := g.Hash()
	for _, i := range []int{-1, 3, 99} {
		err := g.Apply(i)
		assert.True(t, errors.Is(err, engine.ErrIllegal), "index %d", i)
	}
	assert.Equal(t, before, g.Hash())
}

func TestBonusIsSeenOnlyByItsSeat(t *testing.T) {
	g, err := New(11, 4)
	require.NoError(t, err)
	for s := 0; s < 4; s++ {
		ev := engine.EventsFor(nil, g.Log(), s, 0)
		require.Len(t, ev, 1)
		assert.Equal(t, int8(s), ev[0].Seat)
		assert.Equal(t, g.bonus[s], g.View(s).(*View).Bonus)
	}
}

func TestCloneContinuesIdentically(t *testing.T) {
	g, _ := New(5, 2)
	require.NoError(t, g.Apply(1))
	c := g.Clone()
	require.Equal(t, g.Hash(), c.Hash())
	require.NoError(t, g.Apply(0))
	assert.NotEqual(t, g.Hash(), c.Hash())
	require.NoError(t, c.Apply(0))
	assert.Equal(t, g.Hash(), c.Hash())
}

func policies(n int) []engine.Policy {
	p := make([]engine.Policy, n)
	for i := range p {
		p[i] = engine.PolicyFunc(func(_ engine.View, _ []engine.Event, o []engine.Option) int { return len(o) - 1 })
	}
	return p
}
