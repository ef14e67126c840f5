package ismcts

import (
	"math"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// The features of a seat's position in two-player Ninjas that NinjasFit weighs: the
// gems it holds, the cards in its hand by kind, the fortifications standing in front
// of it and whether the turn is its own. The model is linear in the difference of two
// seats' features, so only what differs between them counts.
const (
	nfGems     = 0
	nfHand     = 1                             // nfHand+k: cards of kind k held
	nfCastle   = nfHand + int(ninjas.NumKinds) // 1 with a Castle (or a Jester as one) standing
	nfArcher   = nfCastle + 1                  // likewise an Archer
	nfMinstrel = nfCastle + 2                  // likewise a Minstrel
	nfTurn     = nfCastle + 3                  // 1 for the seat on turn
	// ninjasFeatures is how many there are.
	ninjasFeatures = nfTurn + 1
)

// NinjasFit is two-player Ninjas' cut-off evaluation fitted to data (eval=fit): the
// chance that seat 0 wins the rest of a play-out, a logistic of the weighted
// difference of the two seats' features (ninjasFeatures), fitted by logistic
// regression to the outcomes of play-outs from the states where cut-off play-outs
// stop (ninjasFitted). A finished game, or one of more players (fitted for none), is
// scored by other.
func NinjasFit(other Evaluate) Evaluate {
	return func(g engine.Game, reward []float64) {
		x := g.(*ninjas.Game)
		if g.Terminal() || g.Players() != 2 {
			other(g, reward)
			return
		}
		reward[0] = ninjasWinChance(x, &ninjasFitted)
		reward[1] = 1 - reward[0]
	}
}

// ninjasWinChance is the model w's chance that seat 0 of the two-player game x wins.
func ninjasWinChance(x *ninjas.Game, w *[ninjasFeatures]float64) float64 {
	var f [ninjasFeatures]float64
	ninjasDifference(x, &f)
	z := 0.0
	for j, v := range f {
		z += w[j] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// ninjasDifference writes seat 0's features less seat 1's into f.
func ninjasDifference(x *ninjas.Game, f *[ninjasFeatures]float64) {
	for s, sign := range [2]float64{1, -1} {
		f[nfGems] += sign * float64(x.Gems(s))
		h := x.Hand(s)
		for k, c := range h {
			f[nfHand+k] += sign * float64(c)
		}
		for i, k := range x.Forts(s) {
			if k != ninjas.NoKind {
				f[nfCastle+i] += sign
			}
		}
		if x.TurnSeat() == s {
			f[nfTurn] += sign
		}
	}
}

// ninjasCutoff is the play-out cutoff, in decisions, of two-player Ninjas with the
// fitted evaluation (tableDefaults); the play-out then goes on to the next turn's
// first decision (ninjasAtTurnStart).
const ninjasCutoff = 10

// ninjasAtTurnStart reports whether a cut-off play-out of g may stop here under
// NinjasFit: at a turn's first decision (its cards drawn, nothing played), where the
// fitted states were taken, not amid an attack or a Highwayman window whose outcome
// the features cannot see.
func ninjasAtTurnStart(g engine.Game) bool {
	x, ok := g.(*ninjas.Game)
	return !ok || x.Phase() == ninjas.PhaseAction
}

// ninjasFitted is the fitted model: the weight of each feature difference
// (ninjasFeatures' order), in logits of seat 0's chance to win. Fitted by logistic
// regression to the outcomes of 166,432 play-outs of the search's rollout (the
// heuristic, a tenth of its moves random) from the states where cut-off play-outs of
// 10 decisions stop, taken from every 4th position of 16,000 games of the heuristic
// bot (seeds 900000-915999); checked on 4,000 more games (docs/performance.md,
// "Tuning: two-player Ninjas, a cut-off evaluation fitted to play-outs"). Refit with
//
//	ISMCTS_NINJAS_FIT=20000 nice -n 10 go test ./plugins/ismcts -run TestFitNinjasEvaluation -v
var ninjasFitted = [ninjasFeatures]float64{
	0.2446,                                                         // gems
	0.2026, 0.3690, 0.4271, 0.5177, 0.1219, 0.2393, 0.5176, 0.5856, // Peasant-Catapult held
	0.3136, 0.8874, 0.1297, 0.4804, 0.7871, 0.7785, 0.9671, 0.8571, // Dragon-Jester held
	0.3895, 0.4591, 0.1114, // Castle, Archer, Minstrel standing
	-0.3655, // on turn
}
