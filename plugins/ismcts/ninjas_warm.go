package ismcts

import "github.com/arena-games/arena/engine/ninjas"

// warmNode is the node of path that Config.Warm starts warm this iteration: the one
// descend just added (no visits yet, so neither a prior nor a former iteration has
// touched it), in two-player Ninjas with Warm set; 0 is none.
func (s *Search) warmNode(t *tree, path []int32) int32 {
	if s.cfg.Warm <= 0 || s.game != "ninjas" || s.players != 2 || len(path) < 2 {
		return 0
	}
	if n := path[len(path)-1]; t.nodes[n].visits == 0 {
		return n
	}
	return 0
}

// warm gives node n of t visits virtual visits at its mover's NinjasFit value of the
// two-player state x, a turn's first decision (where the model was fitted). The
// visits count as the node's own in UCB's mean and exploration, so they fade as its
// real visits come; the parent's counts are not touched: the node's siblings are not
// made to look less explored.
func (t *tree) warm(n int32, visits int, x *ninjas.Game) {
	v := ninjasWinChance(x, &ninjasFitted)
	nd := &t.nodes[n]
	if nd.mover == 1 {
		v = 1 - v
	}
	nd.visits += int32(visits)
	nd.reward += float64(visits) * v
}
