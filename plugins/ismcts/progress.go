package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
)

// progressSoft is the temperature, in tokens or gems, of Progress where a setting
// cuts Ivanhoe's or Ninjas' play-outs off.
const progressSoft = 1.0

// Progress is the evaluation of a play-out of Ivanhoe or Ninjas cut off before the
// end: each seat gains, against each opponent, the logistic of the difference of what
// the match ranks by (tokens, gems) over t (negative t: the hard share beaten). A
// finished game gets its match score.
func Progress(t float64) Evaluate { return ProgressHolding(t, 0) }

// ProgressHolding is Progress crediting each Ivanhoe seat, besides its tokens, hand
// tokens for every card it holds: cards are what wins the tournaments to come, so a
// seat that spent its hand on a tournament it did not win is worse off than its
// tokens say, which a play-out cut off mid-game would not otherwise see.
func ProgressHolding(t, hand float64) Evaluate {
	return func(g engine.Game, reward []float64) {
		if g.Terminal() {
			MatchScore(g, reward)
			return
		}
		var key [engine.MaxSeats]int
		var score [engine.MaxSeats]float64
		n := g.Players()
		progress(g, key[:n])
		for s := range score[:n] {
			score[s] = float64(key[s])
		}
		if x, ok := g.(*ivanhoe.Game); ok {
			if s := tournamentLeader(x); s >= 0 {
				score[s] += leaderCredit
			}
			for s := range score[:n] {
				score[s] += hand * float64(x.Held(s))
			}
		}
		if t <= 0 {
			t = 1e-9 // the hard share beaten
		}
		softShare(score[:n], t, reward)
	}
}

// leaderCredit is Progress's part credit, in tokens, for leading Ivanhoe's present
// tournament: a play-out cut off mid-tournament would otherwise see nothing of it.
const leaderCredit = 0.5

// tournamentLeader is the seat whose total is strictly the highest among the seats
// still in Ivanhoe's present tournament, or -1.
func tournamentLeader(g *ivanhoe.Game) int {
	best, bestT, tie := -1, -1, false
	for s := 0; s < g.Players(); s++ {
		if !g.InTournament(s) {
			continue
		}
		switch t := g.Total(s); {
		case t > bestT:
			best, bestT, tie = s, t, false
		case t == bestT:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}
