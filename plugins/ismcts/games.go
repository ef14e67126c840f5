package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// withGame fills what cfg leaves open with what plays each game best (measured: see
// the README). Kardinal's heuristic is far too slow for play-outs (milliseconds per
// decision), so its play-outs are short and random and end in an evaluation: the
// points every seat would have if the game ended there.
func (c Config) withGame(game string) Config {
	if game == kardinal.Name && c.Evaluate == nil {
		c.Evaluate = KardinalProjection
		if c.Cutoff == 0 {
			c.Cutoff = kardinalCutoff
		}
		if c.Rollout == nil && c.Policy == nil {
			c.Rollout = Uniform
		}
	}
	return c.withDefaults()
}

// kardinalCutoff is the play-out length in Kardinal: about two turns of every seat.
var kardinalCutoff = 8

// KardinalProjection rewards each seat by the share of opponents its projected points
// (kardinal.Game.ProjectedScores) beat, ties half: the match score if the game ended
// now.
func KardinalProjection(g engine.Game, reward []float64) {
	var score [engine.MaxSeats]int
	n := g.Players()
	g.(*kardinal.Game).ProjectedScores(score[:n])
	ShareBeaten(score[:n], reward)
}

// ShareBeaten writes, for each seat, the share of the other seats whose score is
// lower, ties counted half: the match score of a ranking by score.
func ShareBeaten(score []int, reward []float64) {
	for s, x := range score {
		beaten := 0.0
		for o, y := range score {
			switch {
			case o == s:
			case y < x:
				beaten++
			case y == x:
				beaten += 0.5
			}
		}
		reward[s] = beaten / float64(len(score)-1)
	}
}
