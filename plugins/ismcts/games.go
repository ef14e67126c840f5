package ismcts

import (
	"math"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// withGame fills what cfg leaves open with what plays each game best (measured: see
// docs/performance.md). Kardinal's heuristic is too slow for play-outs (about 50 µs a decision,
// some 150 decisions a game), so its play-outs are cheap (KardinalPlacer; KardinalGreedy with four players), cut off, and
// end in an evaluation: the points every seat would have if the game ended there, with
// part credit for chains and alliances in the making, compared softly
// (KardinalPotential).
func (c Config) withGame(game string) Config {
	if game == kardinal.Name && c.Evaluate == nil {
		if c.Soft == 0 {
			c.Soft = kardinalSoft
		}
		c.Evaluate = KardinalProjection
		switch {
		case c.Fit > 0:
			c.Evaluate = KardinalFit(max(c.Soft, 0), fitModel(c.Fit))
		case c.Soft > 0 && !c.Plain && c.Ally > 0:
			c.Evaluate = KardinalAllies(c.Soft, c.Ally)
		case c.Soft > 0 && !c.Plain && c.Late > 0:
			c.Evaluate = KardinalCooling(c.Soft, c.Late)
		case c.Soft > 0 && !c.Plain:
			c.Evaluate = KardinalTempo(c.Soft, max(c.Tempo, 0))
		case c.Soft > 0:
			c.Evaluate = SoftKardinalProjection(c.Soft)
		}
		if c.Cutoff == 0 {
			c.Cutoff = kardinalCutoff
		}
		if c.Rollout == nil && c.Policy == nil {
			c.Rollout = KardinalPlacer // KardinalGreedy with four players (tableDefaults)
		}
	}
	return c.withDefaults()
}

// Kardinal's play-out defaults, measured against the heuristic (see docs/performance.md): the
// play-out length in decisions (about two turns of every seat at three players) and
// the temperature of the soft projection, in points.
var (
	kardinalCutoff = 16
	kardinalSoft   = 3.0
)

// KardinalProjection rewards each seat by the share of opponents its projected points
// (kardinal.Game.ProjectedScores) beat, ties half: the match score if the game ended
// now.
func KardinalProjection(g engine.Game, reward []float64) {
	var score [engine.MaxSeats]int
	n := g.Players()
	g.(*kardinal.Game).ProjectedScores(score[:n])
	ShareBeaten(score[:n], reward)
}

// SoftKardinalProjection is KardinalProjection with each comparison smoothed: a seat
// gains, against each opponent, the logistic of their projected points' difference over
// t. Far from the end a lead of a point or two decides little, and the smooth reward
// tells a large lead from a small one.
func SoftKardinalProjection(t float64) Evaluate {
	return func(g engine.Game, reward []float64) {
		var score [engine.MaxSeats]int
		n := g.Players()
		g.(*kardinal.Game).ProjectedScores(score[:n])
		SoftShareBeaten(score[:n], t, reward)
	}
}

// SoftShareBeaten is ShareBeaten with each comparison the logistic of the difference
// over t: as t goes to 0 it is ShareBeaten.
func SoftShareBeaten(score []int, t float64, reward []float64) {
	var f [engine.MaxSeats]float64
	for s, x := range score {
		f[s] = float64(x)
	}
	softShare(f[:len(score)], t, reward)
}

func softShare(score []float64, t float64, reward []float64) {
	for s, x := range score {
		sum := 0.0
		for o, y := range score {
			if o != s {
				sum += 1 / (1 + math.Exp((y-x)/t))
			}
		}
		reward[s] = sum / float64(len(score)-1)
	}
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

// KardinalPlacer is a play-out policy for Kardinal about as cheap as Uniform but closer
// to real play: a seat that can place a piece does, paying without a joker where it
// can (players rarely exchange or stop while a placement is open); otherwise uniform.
// In other games it is Uniform.
func KardinalPlacer(g engine.Game, r *engine.Rand) int {
	opts := g.Options()
	if _, ok := g.(*kardinal.Game); !ok {
		return r.Intn(len(opts))
	}
	var plain, jokers [64]int16
	np, nj := 0, 0
	for i, o := range opts {
		if kardinal.OptionKind(o.Kind) != kardinal.Place {
			continue
		}
		p, _ := kardinal.AsPlacement(o)
		switch {
		case !p.Joker && np < len(plain):
			plain[np], np = int16(i), np+1
		case p.Joker && nj < len(jokers):
			jokers[nj], nj = int16(i), nj+1
		}
	}
	switch {
	case np > 0:
		return int(plain[r.Intn(np)])
	case nj > 0:
		return int(jokers[r.Intn(nj)])
	}
	return r.Intn(len(opts))
}

// Part credits of KardinalPotential, in points: what a short chain or a half-made
// alliance is likely worth by the end (the heuristic bot's weights).
const (
	potentialChain    = 0.25 // per square of a chain's length below MinChain
	potentialAlliance = 0.35 // per advisor of a half-made alliance
)

// KardinalPotential is SoftKardinalProjection with the heuristic bot's part credit
// for what is not yet points: a short chain of monasteries (0.25 per square of its
// length) and leading one side of an alliance whose other side is still empty (0.35
// per advisor of both sides, plus one). Play-outs cut off early leave many such
// positions, and the plain projection scores them as nothing.
func KardinalPotential(t float64) Evaluate { return KardinalTempo(t, 0) }

// KardinalTempo is KardinalPotential crediting tempo points to each seat that still
// has a turn to come in the present round (from the seat to move up to the start
// player's right, K10): every seat has as many turns in the end, so a play-out cut
// off mid-round shows the seats that have just moved ahead by what their turn
// brought, and the others' turns are still to come.
func KardinalTempo(t, tempo float64) Evaluate {
	return potentialWith(t, func(k *kardinal.Game, score []float64) {
		if tempo > 0 {
			for s := k.ToMove(); s != k.Start(); s = (s + 1) % len(score) {
				score[s] += tempo
			}
		}
	})
}

// potentialWith is KardinalPotential with more credit, added by more to the seats'
// scores before they are compared; a finished game gets its points alone.
func potentialWith(t float64, more func(k *kardinal.Game, score []float64)) Evaluate {
	return func(g engine.Game, reward []float64) {
		var score [engine.MaxSeats]float64
		var pts [engine.MaxSeats]int
		k := g.(*kardinal.Game)
		n := g.Players()
		k.ProjectedScores(pts[:n])
		if g.Terminal() { // the points are final: nothing in the making counts
			SoftShareBeaten(pts[:n], t, reward)
			return
		}
		potentialScores(k.Table(), k.Board(), pts[:n], score[:n])
		more(k, score[:n])
		softShare(score[:n], t, reward)
	}
}

// KardinalCooling is KardinalPotential whose temperature falls as the game goes on:
// late at its end, 2t-late at its start, t halfway (measured by the cards drawn, the
// pile about twice), as what is still to come, and so how little a lead of some
// points decides, shrinks.
func KardinalCooling(t, late float64) Evaluate {
	return func(g engine.Game, reward []float64) {
		k := g.(*kardinal.Game)
		n := g.Players()
		var pts [engine.MaxSeats]int
		k.ProjectedScores(pts[:n])
		if g.Terminal() {
			SoftShareBeaten(pts[:n], late, reward)
			return
		}
		first := float64(kardinal.DeckSize - int(kardinal.NumKinds)*kardinal.Removed(n) - kardinal.HandSize*n - kardinal.FaceUpSize)
		left := float64(k.DrawPile())
		if !k.InterimDone() {
			left += first
		}
		r := min(max(left/(2*first), 0), 1) // the share of the game still to come
		var score [engine.MaxSeats]float64
		potentialScores(k.Table(), k.Board(), pts[:n], score[:n])
		softShare(score[:n], late+(2*t-2*late)*r, reward)
	}
}

// potentialScores writes into score each seat's projected points pts plus its part
// credit on table tab.
func potentialScores(tab *kardinal.Table, b *kardinal.Board, pts []int, score []float64) {
	n := len(pts)
	var buf [kardinal.MaxSpaces]int
	for s := 0; s < n; s++ {
		score[s] = float64(pts[s])
		for _, l := range tab.Chains(b, s, buf[:0]) {
			if l < kardinal.MinChain {
				score[s] += potentialChain * float64(l*l)
			}
		}
	}
	for _, a := range b.Alliances() {
		la, lb := tab.AdvisorLeaders(a.A, n), tab.AdvisorLeaders(a.B, n)
		credit := potentialAlliance * float64(tab.AdvisorsIn(a.A)+tab.AdvisorsIn(a.B)+1)
		for s := 0; s < n; s++ {
			if la[s] && !lb[s] && tab.AdvisorsIn(a.B) == 0 || lb[s] && !la[s] && tab.AdvisorsIn(a.A) == 0 {
				score[s] += credit
			}
		}
	}
}
