package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelIsTwoPlayerNinjasDefault: two-player Ninjas has the other seat choose in the
// tree as in play-outs unless the caller says model=ucb, and no other table does. A
// search with the defaults, which learns the table from its first sample, grows no move
// of the other seat that the rollout policy did not choose.
func TestModelIsTwoPlayerNinjasDefault(t *testing.T) {
	assert.Equal(t, 1, Config{}.withTable("ninjas", 2).Model)
	for _, n := range []int{3, 4, 5, 6} {
		assert.Zero(t, Config{}.withTable("ninjas", n).Model, "%d players", n)
	}
	assert.Zero(t, Config{}.withTable("ivanhoe", 2).Model)
	off, err := ParseSettings("model=ucb")
	require.NoError(t, err)
	assert.Equal(t, -1, off.withTable("ninjas", 2).Model)

	g := midGame(t, "ninjas", 2, 10)
	self := g.ToMove()
	chosen := map[engine.Option]bool{}
	first := func(g engine.Game, _ *engine.Rand) int {
		chosen[g.Options()[0]] = true
		return 0
	}
	s, err := NewSearch("ninjas", nil, 1, Config{Iterations: 300, Rollout: first, Cutoff: 4, Infer: -1})
	require.NoError(t, err)
	_, err = s.Choose(g.View(self), engine.EventsFor(nil, g.Log(), self, 0), g.Options(), time.Time{})
	require.NoError(t, err)
	others, unchosen := otherMoves(s, self, chosen)
	assert.Positive(t, others, "no other seat in the tree")
	assert.Zero(t, unchosen, "moves the model never chose are in the tree")
}

// otherMoves counts the nodes of s's tree of seats other than self, and those among
// them whose option chosen does not hold.
func otherMoves(s *Search, self int, chosen map[engine.Option]bool) (others, unchosen int) {
	for _, n := range s.tree.nodes[1:] {
		if int(n.mover) != self {
			others++
			if !chosen[n.opt] {
				unchosen++
			}
		}
	}
	return others, unchosen
}
