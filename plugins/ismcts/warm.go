package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

// warmNode is the node of path that Config.Warm starts warm this iteration: the one
// descend just added (no visits yet, so neither a prior nor a former iteration has
// touched it), where the table has a fitted value to start it with (warmable); 0 is
// none.
func (s *Search) warmNode(t *tree, path []int32) int32 {
	if s.cfg.Warm <= 0 || !s.warmable() || len(path) < 2 {
		return 0
	}
	if n := path[len(path)-1]; t.nodes[n].visits == 0 {
		return n
	}
	return 0
}

// warmable reports a table with a fitted model of the position: two-player Ninjas
// (NinjasFit's) and five-player Kardinal with its fitted cut-off evaluation
// (Config.Fit, KardinalFit's).
func (s *Search) warmable() bool {
	switch s.game {
	case "ninjas":
		return s.players == 2
	case kardinal.Name:
		return s.players == kardinal.MaxPlayers && s.cfg.Fit > 0
	}
	return false
}

// warmIfDue starts node n of t warm if g, a state of its play-out, is one its table's
// model reads, and returns 0 once it has (n while it waits). Kardinal's fit reads any
// state (its phases are by the cards drawn, and a seat's turn still to come is one of
// its features), so a node takes the value of the state its move led to; Ninjas's
// model was fitted at a turn's first decision, so a node waits for one. The value is
// the node's mover's: in Kardinal its reward, in two-player Ninjas seat 0's chance to
// win or its complement.
func (s *Search) warmIfDue(t *tree, n int32, g engine.Game) int32 {
	mover := t.nodes[n].mover
	var v float64
	switch {
	case s.game == kardinal.Name:
		r := s.reward[:g.Players()]
		s.cfg.Evaluate(g, r)
		v = r[mover]
	case ninjasAtTurnStart(g):
		if v = ninjasWinChance(g.(*ninjas.Game), &ninjasFitted); mover == 1 {
			v = 1 - v
		}
	default:
		return n
	}
	t.warmAt(n, s.cfg.Warm, v)
	return 0
}

// warmAt gives node n visits virtual visits at value v, its mover's. The visits count
// as the node's own in UCB's mean and exploration, so they fade as its real visits
// come; the parent's counts are not touched: the node's siblings are not made to look
// less explored.
func (t *tree) warmAt(n int32, visits int, v float64) {
	nd := &t.nodes[n]
	nd.visits += int32(visits)
	nd.reward += float64(visits) * v
}
