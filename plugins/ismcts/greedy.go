package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/plugins/heuristic"
)

// Weights of KardinalGreedy, in points of the mover's lead over the mean opponent.
const (
	greedyChain = 0.5 // per own monastery a new one joins by road
	greedyJoker = 0.4 // paying two cards for one piece
)

// KardinalGreedy is a play-out policy for Kardinal that places where placing scores: of
// the placements listed it takes the one that most raises the mover's points ahead of
// the mean opponent, on the table as it stands: the monastery majority of the country
// (counted twice before the interim scoring), the alliances an advisor leads into,
// and a part credit per own monastery a new one joins by road (chains). A joker costs
// a little. Ties are broken at random; with nothing to place it plays uniformly, as
// KardinalPlacer does. Each country is valued once per decision; a search iteration
// with these play-outs costs 1.3-1.5 times one with KardinalPlacer's. In other games
// it is Uniform.
func KardinalGreedy(g engine.Game, r *engine.Rand) int {
	opts := g.Options()
	k, ok := g.(*kardinal.Game)
	if !ok || kardinal.OptionKind(opts[0].Kind) != kardinal.Place {
		return r.Intn(len(opts)) // placements are listed first: there are none
	}
	var e greedyEval
	e.init(k)
	best, ties, bestScore := -1, 0, 0.0
	for i, o := range opts {
		if kardinal.OptionKind(o.Kind) != kardinal.Place {
			continue
		}
		p, _ := kardinal.AsPlacement(o)
		s := e.value(p)
		switch {
		case best < 0 || s > bestScore:
			best, ties, bestScore = i, 1, s
		case s == bestScore:
			ties++
			if r.Intn(ties) == 0 { // reservoir: each tied option equally likely
				best = i
			}
		}
	}
	if best < 0 {
		return r.Intn(len(opts))
	}
	return best
}

// KardinalGreedyMix plays KardinalGreedy, and with probability placer KardinalPlacer
// instead: play-outs between the two in foresight and spread.
func KardinalGreedyMix(placer float64) Rollout {
	cut := uint64(placer * (1 << 53))
	return func(g engine.Game, r *engine.Rand) int {
		if r.Uint64()>>11 < cut {
			return KardinalPlacer(g, r)
		}
		return KardinalGreedy(g, r)
	}
}

// greedyEval values placements for the mover of one decision, caching each country's
// majority and alliance values.
type greedyEval struct {
	tab     kardinal.Table // a copy, changed and restored to value a piece
	b       *kardinal.Board
	seat, n int
	mult    float64
	// mon and adv are each country's gains once valued (done: bit 1 mon, bit 2 adv).
	done     [kardinal.NumCountries]uint8
	mon, adv [kardinal.NumCountries]float64
}

func (e *greedyEval) init(k *kardinal.Game) {
	e.tab, e.b, e.seat, e.n = *k.Table(), k.Board(), k.ToMove(), k.Players()
	e.mult = 1
	if !k.InterimDone() {
		e.mult = 2
	}
}

// value is placement p's gain for the mover.
func (e *greedyEval) value(p kardinal.Placement) float64 {
	c := p.Country
	var v float64
	switch {
	case p.Advisor():
		if e.done[c]&2 == 0 {
			e.adv[c], e.done[c] = e.advisorGain(c), e.done[c]|2
		}
		v = e.adv[c]
	default:
		if e.done[c]&1 == 0 {
			e.mon[c], e.done[c] = e.monasteryGain(c), e.done[c]|1
		}
		v = e.mon[c]
		for _, z := range e.b.Roads(p.Space) {
			if e.tab.OwnerOf(int(z)) == e.seat {
				v += greedyChain
			}
		}
	}
	if p.Joker {
		v -= greedyJoker
	}
	return v
}

// monasteryGain is what one more monastery of the mover in c is worth: the change in
// the country's majority points, times mult, as the mover's lead over the mean opponent.
func (e *greedyEval) monasteryGain(c kardinal.Country) float64 {
	t := &e.tab
	before := e.lead(t.CountryPoints(c, e.n))
	t.Monasteries[c][e.seat]++
	after := e.lead(t.CountryPoints(c, e.n))
	t.Monasteries[c][e.seat]--
	return e.mult * (after - before)
}

// advisorGain is what one more advisor of the mover in c is worth: the change in the
// points of the alliances c is part of, as the mover's lead over the mean opponent.
func (e *greedyEval) advisorGain(c kardinal.Country) float64 {
	t := &e.tab
	gain := 0.0
	for _, a := range e.b.Alliances() {
		if a.A != c && a.B != c {
			continue
		}
		before := e.lead(t.AlliancePoints(a, e.n))
		t.Advisors[c][e.seat]++
		gain += e.lead(t.AlliancePoints(a, e.n)) - before
		t.Advisors[c][e.seat]--
	}
	return gain
}

// lead is the mover's points minus the mean of the others'.
func (e *greedyEval) lead(pts [kardinal.MaxPlayers]int) float64 {
	return heuristic.KardinalLead(pts, e.seat, e.n)
}
