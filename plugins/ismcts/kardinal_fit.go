package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// KardinalFit is Kardinal's cut-off evaluation fitted to data (eval=fit): each seat's
// final points, relative to the table's mean, predicted by a linear model of the
// position per phase of the game (fitPhases, by the share of the game still to come),
// then compared softly at the phase's fitted temperature, so that each comparison is
// about the chance the seat ends ahead of the other. A finished game, or one of fewer
// players (fitted for none), is KardinalPotential's at temperature t (0: hard ranks).
func KardinalFit(t float64) Evaluate {
	other := KardinalProjection
	if t > 0 {
		other = KardinalPotential(t)
	}
	return func(g engine.Game, reward []float64) {
		k := g.(*kardinal.Game)
		n := g.Players()
		if g.Terminal() || n != kardinal.MaxPlayers {
			other(g, reward)
			return
		}
		var f [engine.MaxSeats][fitFeatures]float64
		phase := kardinalFeatures(k, &f)
		var score [engine.MaxSeats]float64
		w := &kardinalFitted[phase]
		for s := 0; s < n; s++ {
			for j, x := range f[s] {
				score[s] += w.coef[j] * x
			}
		}
		softShare(score[:n], w.soft, reward)
	}
}

// The features of a seat's position the fitted evaluation weighs, each relative to
// the table's mean (the model predicts points relative to the mean, so a feature
// every seat shares says nothing).
const (
	fitProjected   = iota // kardinal.Game.ProjectedScores: the points if the game ended now
	fitPart               // KardinalPotential's part credit (short chains, half-made alliances)
	fitContested          // contestedAlliances' credit at 1 point per advisor
	fitMonasteries        // monasteries placed
	fitAdvisors           // advisors placed
	fitTurn               // 1 for a seat with a turn still to come in the round (KardinalTempo)
	fitFeatures
)

// fitPhases is how many phases the game is cut into for the fit, evenly by the share
// of the game still to come (KardinalCooling's measure: the cards drawn).
const fitPhases = 4

// fitted is one phase's model: the weights of the features and the temperature at
// which the predicted points are compared (the logistic scale of the errors of the
// predicted differences between two seats).
type fitted struct {
	coef [fitFeatures]float64
	soft float64
}

// kardinalFeatures writes each seat's features, relative to the table's mean, into f
// and returns the phase of the game.
func kardinalFeatures(k *kardinal.Game, f *[engine.MaxSeats][fitFeatures]float64) int {
	n := k.Players()
	tab, b := k.Table(), k.Board()
	var pts [engine.MaxSeats]int
	var part, contested [engine.MaxSeats]float64
	k.ProjectedScores(pts[:n])
	potentialScores(tab, b, pts[:n], part[:n])
	contestedAlliances(tab, b, 1, contested[:n])
	for s := 0; s < n; s++ {
		x := &f[s]
		x[fitProjected] = float64(pts[s])
		x[fitPart] = part[s] - float64(pts[s])
		x[fitContested] = contested[s]
		for c := range kardinal.NumCountries {
			x[fitMonasteries] += float64(tab.Monasteries[c][s])
			x[fitAdvisors] += float64(tab.Advisors[c][s])
		}
	}
	for s := k.ToMove(); s != k.Start(); s = (s + 1) % n {
		f[s][fitTurn] = 1
	}
	for j := range fitFeatures {
		mean := 0.0
		for s := 0; s < n; s++ {
			mean += f[s][j] / float64(n)
		}
		for s := 0; s < n; s++ {
			f[s][j] -= mean
		}
	}
	return min(int((1-gameLeft(k))*fitPhases), fitPhases-1)
}

// gameLeft is the share of the game still to come, 1 at the start and 0 at the end,
// by the cards left to draw (the pile runs out twice).
func gameLeft(k *kardinal.Game) float64 {
	n := k.Players()
	first := float64(kardinal.DeckSize - int(kardinal.NumKinds)*kardinal.Removed(n) - kardinal.HandSize*n - kardinal.FaceUpSize)
	left := float64(k.DrawPile())
	if !k.InterimDone() {
		left += first
	}
	return min(max(left/(2*first), 0), 1)
}

// kardinalFitted are the fitted models, one a phase, for five players: the weights in
// the order of the features above, and the temperature. Fitted by least squares to the
// final points of 8,000 five-player games of the heuristic bot (deals 8040-16039, every
// 20th position, 68,055 positions), the features read where 16 decisions of
// KardinalPlacer from each position take it, as a search's play-out does before its
// cut-off; checked on 2,000 more games, where they predict which of two seats ends
// ahead better than KardinalPotential at temperature 5 in every phase
// (docs/performance.md, "Tuning: five-player Kardinal, a cut-off evaluation fitted to
// data"). Refit with
//
//	ISMCTS_FIT_PLAYOUT=16 ISMCTS_FIT=10000 nice -n 19 go test ./plugins/ismcts -run TestFitKardinalEvaluation -v
var kardinalFitted = [fitPhases]fitted{
	{coef: [fitFeatures]float64{0.368, 1.548, 0.033, 1.045, -0.577, -0.056}, soft: 7.37}, // phase 0
	{coef: [fitFeatures]float64{0.753, 1.309, 0.226, 0.101, 0.791, 1.699}, soft: 6.47},   // phase 1
	{coef: [fitFeatures]float64{0.958, 1.120, 0.302, -0.482, 0.457, 2.304}, soft: 4.90},  // phase 2
	{coef: [fitFeatures]float64{0.988, 0.451, 0.225, -0.287, -0.028, 2.117}, soft: 3.01}, // phase 3
}
