// Command ismctsbot is a search bot built on the arena's ISMCTS in a few lines: the
// search, the samplers and the deadline handling come from plugins/ismcts; the bot
// brings its own rollout policy (here: in Ivanhoe, play the strongest card it may, else
// anything at random) and its own evaluation (stop play-outs after 60 decisions and
// score the seats by tokens held).
//
//	go build -o ismctsbot ./examples/ismctsbot
//	go run ./cmd/arena match ./ismctsbot heuristic --games 20
package main

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/plugins/ismcts"
	"github.com/arena-games/arena/protocol"
)

// rollout plays the highest card on offer, or a random option.
func rollout(g engine.Game, r *engine.Rand) int {
	opts := g.Options()
	best, bestValue := r.Intn(len(opts)), 0
	for i, o := range opts {
		if ivanhoe.OptionKind(o.Kind) == ivanhoe.PlayCard {
			if v := ivanhoe.Card(o.A).Value(); v > bestValue {
				best, bestValue = i, v
			}
		}
	}
	return best
}

// evaluate scores an unfinished game by tokens (the match score when it is over).
func evaluate(g engine.Game, reward []float64) {
	if g.Terminal() {
		ismcts.MatchScore(g, reward)
		return
	}
	iv := g.(*ivanhoe.Game)
	most := 1
	for s := range reward {
		most = max(most, count(iv.Tokens(s)))
	}
	for s := range reward {
		reward[s] = float64(count(iv.Tokens(s))) / float64(most)
	}
}

func count(t [ivanhoe.NumColours]bool) int {
	n := 0
	for _, has := range t {
		if has {
			n++
		}
	}
	return n
}

func main() {
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		cfg := ismcts.Config{Iterations: 400} // and never past the arena's deadline
		if m.Game == "ivanhoe" {
			cfg.Rollout, cfg.Cutoff, cfg.Evaluate = rollout, 60, evaluate
		}
		p, err := ismcts.ForMatch(m, cfg)
		if err != nil {
			return nil // a game without a sampler: the match is refused
		}
		return p
	})
}
