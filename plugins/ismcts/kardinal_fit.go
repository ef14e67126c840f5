package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// KardinalFit is Kardinal's cut-off evaluation fitted to data (eval=fit, eval=fit2):
// each seat's final points, relative to the table's mean, predicted by a linear model
// of the position per phase of the game (models, one a phase: fitPhases, by the share
// of the game still to come), then compared softly at the phase's fitted temperature,
// so that each comparison is about the chance the seat ends ahead of the other. A
// finished game, or one of fewer players (fitted for none), is KardinalPotential's at
// temperature t (0: hard ranks).
func KardinalFit(t float64, models *[fitPhases]fitted) Evaluate {
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
		w := &models[phase]
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
	fitAlone              // countries where the seat alone has the most monasteries
	fitByOne              // of those, the ones it leads by a single monastery
	fitShared             // countries where it shares the most monasteries with another seat
	fitBehind             // countries where it has monasteries, one fewer than the most
	fitHand               // cards in hand
	fitPairs              // kinds held twice or more (a joker's payment)
	fitHandLead           // cards naming a country with a free space where one monastery more puts the seat level with every other or ahead
	fitHandAdvisor        // cards naming a country with room for an advisor
	fitFeatures
)

// fitPhases is how many phases the game is cut into for the fit, evenly by the share
// of the game still to come (KardinalCooling's measure: the cards drawn).
const fitPhases = 8

// fitModel is the models of a setting of Config.Fit: 1 (eval=fit) the first six
// features in quarters, 2 (eval=fit2) all of them in eighths.
func fitModel(fit int) *[fitPhases]fitted {
	if fit == 2 {
		return &kardinalFitted
	}
	return &kardinalQuarters
}

// fitted is one phase's model: the weights of the features and the temperature at
// which the predicted points are compared (the logistic scale of the errors of the
// predicted differences between two seats).
type fitted struct {
	coef [fitFeatures]float64
	soft float64
}

// kardinalFeatures writes each seat's features, relative to the table's mean, into f
// and returns the phase of the game. It reads each country and each seat's chains once
// for all the features, in one pass (the same values, to the last bit, as
// ProjectedScores, potentialScores and contestedAlliances, which would read the
// alliances three times and the chains twice).
func kardinalFeatures(k *kardinal.Game, f *[engine.MaxSeats][fitFeatures]float64) int {
	n := k.Players()
	tab, b := k.Table(), k.Board()
	var cs [kardinal.NumCountries]country
	for c := range kardinal.NumCountries {
		cs[c] = readCountry(tab, b, c, n)
		for s := 0; s < n; s++ {
			standing(&f[s], tab.Monasteries[c][s], &cs[c])
			f[s][fitMonasteries] += float64(tab.Monasteries[c][s])
			f[s][fitAdvisors] += float64(tab.Advisors[c][s])
		}
	}
	var pts [engine.MaxSeats]int
	projected(k, &cs, pts[:n])
	var chains [engine.MaxSeats][kardinal.MaxSpaces]int
	var lens [engine.MaxSeats][]int
	for s := 0; s < n; s++ {
		lens[s] = tab.Chains(b, s, chains[s][:0])
		for _, l := range lens[s] {
			if l >= kardinal.MinChain {
				pts[s] += l
			}
		}
	}
	var part, contested [engine.MaxSeats]float64
	for s := 0; s < n; s++ {
		part[s] = float64(pts[s])
		for _, l := range lens[s] {
			if l < kardinal.MinChain {
				part[s] += potentialChain * float64(l*l)
			}
		}
	}
	alliancesInTheMaking(tab, b, &cs, part[:n], contested[:n])
	for s := 0; s < n; s++ {
		x := &f[s]
		x[fitProjected] = float64(pts[s])
		x[fitPart] = part[s] - float64(pts[s])
		x[fitContested] = contested[s]
		holding(x, k.Hand(s), tab.Monasteries, s, &cs)
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

// country is what the features read of one country: the most monasteries a seat has
// there and the second most (equal to the most where two seats share it), the most
// advisors a seat has, the advisors in all, whether a monastery space is free and
// whether an advisor fits (K4).
type country struct {
	most, second, mostAdvisors uint8
	advisors                   int
	free, advisor              bool
}

func readCountry(tab *kardinal.Table, b *kardinal.Board, c kardinal.Country, n int) country {
	var x country
	for s := 0; s < n; s++ {
		switch m := tab.Monasteries[c][s]; {
		case m > x.most:
			x.most, x.second = m, x.most
		case m > x.second:
			x.second = m
		}
		x.mostAdvisors = max(x.mostAdvisors, tab.Advisors[c][s])
		x.advisors += int(tab.Advisors[c][s])
	}
	x.free = tab.FreeSpaces(b, c) > 0
	x.advisor = x.advisors < int(x.most) // the cap: the most monasteries a seat has there
	return x
}

// leads reports whether seat s leads c's advisors (K11: ties all lead, nobody leads a
// country without advisors).
func (x *country) leads(tab *kardinal.Table, c kardinal.Country, s int) bool {
	return x.mostAdvisors > 0 && tab.Advisors[c][s] == x.mostAdvisors
}

// projected writes into pts ProjectedScores without the chains: the points so far,
// the monastery scorings still to come and the alliances.
func projected(k *kardinal.Game, cs *[kardinal.NumCountries]country, pts []int) {
	tab, b := k.Table(), k.Board()
	n := len(pts)
	times := 2
	if k.InterimDone() {
		times = 1
	}
	mon := tab.MonasteryPoints(n)
	for s := range pts {
		pts[s] = k.Points(s) + times*mon[s]
	}
	for _, a := range b.Alliances() {
		x, y := &cs[a.A], &cs[a.B]
		for s := 0; s < n; s++ {
			if x.leads(tab, a.A, s) && y.leads(tab, a.B, s) {
				pts[s] += x.advisors + y.advisors
			}
		}
	}
}

// alliancesInTheMaking adds to part potentialScores' credit for the alliances led on
// one side whose other side is empty, and to contested contestedAlliances' (at 1 point
// an advisor) for those whose other side the seat is one advisor from leading.
func alliancesInTheMaking(tab *kardinal.Table, b *kardinal.Board, cs *[kardinal.NumCountries]country, part, contested []float64) {
	for _, a := range b.Alliances() {
		x, y := &cs[a.A], &cs[a.B]
		advisors := float64(x.advisors + y.advisors + 1)
		for s := range part {
			la, lb := x.leads(tab, a.A, s), y.leads(tab, a.B, s)
			if la && !lb && y.advisors == 0 || lb && !la && x.advisors == 0 {
				part[s] += potentialAlliance * advisors
			}
			switch {
			case la && !lb && y.near(tab, a.B, s):
				contested[s] += advisors
			case lb && !la && x.near(tab, a.A, s):
				contested[s] += advisors
			}
		}
	}
}

// near reports whether seat s is one advisor from the lead of country c, which has
// advisors and room for one more (contestedAlliances' within).
func (x *country) near(tab *kardinal.Table, c kardinal.Country, s int) bool {
	return x.advisors > 0 && x.advisor && tab.Advisors[c][s]+1 >= x.mostAdvisors
}

// standing adds to a seat's features its place in one country's monasteries (m its
// own).
func standing(x *[fitFeatures]float64, m uint8, c *country) {
	switch {
	case m == 0:
	case m == c.most && c.most > c.second:
		x[fitAlone]++
		if c.most-c.second == 1 {
			x[fitByOne]++
		}
	case m == c.most:
		x[fitShared]++
	case c.most-m == 1:
		x[fitBehind]++
	}
}

// holding adds to seat s's features what its hand is worth on the board.
func holding(x *[fitFeatures]float64, hand [kardinal.NumKinds]uint8, mon [kardinal.NumCountries][kardinal.MaxPlayers]uint8, s int, cs *[kardinal.NumCountries]country) {
	for kd, held := range hand {
		if held == 0 {
			continue
		}
		x[fitHand] += float64(held)
		if held >= 2 {
			x[fitPairs]++
		}
		for _, c := range kardinal.Kind(kd).Countries() {
			cc := &cs[c]
			if cc.advisor {
				x[fitHandAdvisor] += float64(held)
			}
			if !cc.free {
				continue
			}
			m, others := mon[c][s], cc.most // the most of the other seats
			if m == cc.most {
				others = cc.second
			}
			if m+1 >= others {
				x[fitHandLead] += float64(held)
			}
		}
	}
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

// kardinalQuarters are eval=fit's models, fitted as kardinalFitted's but to the first
// six features (up to fitTurn) and four quarters of the game, each quarter's model here
// in its two phases (docs/performance.md, "Tuning: five-player Kardinal, a cut-off
// evaluation fitted to data"; TestFitKardinalEvaluation as of 92579ec fits them).
var kardinalQuarters = [fitPhases]fitted{
	{coef: [fitFeatures]float64{0.368, 1.548, 0.033, 1.045, -0.577, -0.056}, soft: 7.37}, // 1st quarter
	{coef: [fitFeatures]float64{0.368, 1.548, 0.033, 1.045, -0.577, -0.056}, soft: 7.37},
	{coef: [fitFeatures]float64{0.753, 1.309, 0.226, 0.101, 0.791, 1.699}, soft: 6.47}, // 2nd
	{coef: [fitFeatures]float64{0.753, 1.309, 0.226, 0.101, 0.791, 1.699}, soft: 6.47},
	{coef: [fitFeatures]float64{0.958, 1.120, 0.302, -0.482, 0.457, 2.304}, soft: 4.90}, // 3rd
	{coef: [fitFeatures]float64{0.958, 1.120, 0.302, -0.482, 0.457, 2.304}, soft: 4.90},
	{coef: [fitFeatures]float64{0.988, 0.451, 0.225, -0.287, -0.028, 2.117}, soft: 3.01}, // 4th
	{coef: [fitFeatures]float64{0.988, 0.451, 0.225, -0.287, -0.028, 2.117}, soft: 3.01},
}

// kardinalFitted are eval=fit2's models, one a phase, for five players: the weights in
// the order of the features above, and the temperature. Fitted by least squares to the
// final points of 8,000 five-player games of the heuristic bot (deals 8040-16039, every
// 20th position, 68,055 positions), the features read where 16 decisions of
// KardinalPlacer from each position take it, as a search's play-out does before its
// cut-off; checked on 2,000 more games, where they predict which of two seats ends
// ahead better than KardinalPotential at temperature 5 in every phase, and better than
// the six features of four quarters before them (docs/performance.md, "Tuning:
// five-player Kardinal, a cut-off evaluation fitted to data" and "the fit reads the
// majorities and the hands"). Refit with
//
//	ISMCTS_FIT_PLAYOUT=16 ISMCTS_FIT=10000 nice -n 19 go test ./plugins/ismcts -run TestFitKardinalEvaluation -v
var kardinalFitted = [fitPhases]fitted{
	{coef: [fitFeatures]float64{0.347, 0.174, 0.772, 1.601, 2.484, 0.693, 3.428, -2.210, -0.185, 0.764, 2.366, 1.128, -0.615, 0.272}, soft: 7.47},  // phase 0
	{coef: [fitFeatures]float64{0.770, 1.228, 0.013, -0.369, 1.380, 2.176, 5.882, -3.116, 0.605, 1.143, 2.526, 0.856, -0.287, 0.124}, soft: 7.26},  // phase 1
	{coef: [fitFeatures]float64{0.851, 1.236, 0.183, -0.750, 1.472, 2.965, 5.451, -2.996, 0.360, 0.472, 1.713, 0.892, 0.269, 0.134}, soft: 6.68},   // phase 2
	{coef: [fitFeatures]float64{0.914, 1.203, 0.259, -1.020, 1.503, 3.533, 5.309, -2.652, 0.826, 0.610, 1.454, 0.803, 0.551, 0.222}, soft: 5.92},   // phase 3
	{coef: [fitFeatures]float64{0.949, 1.129, 0.288, -1.120, 1.042, 3.409, 4.380, -2.039, 1.189, 0.648, 1.046, 0.707, 0.377, 0.234}, soft: 5.11},   // phase 4
	{coef: [fitFeatures]float64{1.011, 0.964, 0.292, -0.969, 0.459, 3.284, 3.282, -1.698, 0.609, 0.459, 1.252, 0.631, 0.333, 0.285}, soft: 4.34},   // phase 5
	{coef: [fitFeatures]float64{1.020, 0.668, 0.255, -0.625, 0.194, 3.246, 2.107, -1.213, 0.188, 0.253, 1.398, 0.552, 0.362, 0.249}, soft: 3.60},   // phase 6
	{coef: [fitFeatures]float64{0.986, 0.267, 0.182, -0.110, 0.058, 2.929, 0.598, -0.399, -0.092, -0.013, 1.153, 0.759, 0.357, 0.282}, soft: 2.34}, // phase 7
}
