package heuristic

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// Kardinal returns the heuristic policy for Kardinal und König. It scores each option
// by how it changes a projection of the final score, own points minus the mean of the
// others', from the public table:
//
//   - monastery majorities (K9), counted twice before the interim scoring;
//   - alliances (K11), with part credit for leading one side of an alliance whose
//     other side is still open, so advisors go towards alliances;
//   - chains (K12): a group's longest line scores its length from four on, and a
//     convex part credit below, so monasteries are built next to each other;
//
// A first piece is valued together with the best second piece the rest of the hand
// can pay for. Jokers cost a little, so two cards of a kind are kept for the placement
// only a joker reaches. With no placement worth making it exchanges its least useful
// card for the most useful one in reach; refills prefer face-up cards that are useful
// or make a pair. It is stateless, so safe for concurrent use.
func Kardinal() engine.Policy { return kardinalPolicy{} }

type kardinalPolicy struct{}

// Weights of the projection; chosen by hand and checked against the random bot.
const (
	jokerCost      = 0.4  // keeping a pair is worth this much
	chainCredit    = 0.25 // part credit per square of a short chain's length
	allianceCredit = 0.35 // part credit per advisor of a half-made alliance
	pairBonus      = 0.6  // a card that makes a joker in hand
	exchangeScale  = 0.3  // an exchange is worth this part of the usefulness gained
)

// Choose picks the option with the best projected gain; ties go to the first listed.
func (kardinalPolicy) Choose(view engine.View, _ []engine.Event, options []engine.Option) int {
	v, ok := view.(*kardinal.View)
	if !ok || len(options) == 0 {
		return 0
	}
	e := evaluator{v: v, seat: v.Seat, n: v.Players}
	e.mult = 1
	if !v.InterimDone {
		e.mult = 2
	}
	best, bestScore := 0, -1e9
	for i, o := range options {
		var s float64
		switch kardinal.OptionKind(o.Kind) {
		case kardinal.Place:
			p, _ := kardinal.AsPlacement(o)
			s = e.placeScore(p)
		case kardinal.Exchange:
			s = e.exchangeScore(kardinal.Kind(o.A), int(o.B))
		case kardinal.Take:
			s = e.takeScore(int(o.A))
		default: // Stop, Pass
			s = 0
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

type evaluator struct {
	v       *kardinal.View
	seat, n int
	mult    float64
}

// relative is own minus the mean of the others.
func (e *evaluator) relative(pts [kardinal.MaxPlayers]int) float64 {
	return KardinalLead(pts, e.seat, e.n)
}

// KardinalLead is seat's points in pts minus the mean of the other seats' points: how
// far a seat is ahead of a typical opponent, the measure this bot (and the search
// bot's greedy play-outs) weigh placements by.
func KardinalLead(pts [kardinal.MaxPlayers]int, seat, players int) float64 {
	others := 0
	for s := 0; s < players; s++ {
		if s != seat {
			others += pts[s]
		}
	}
	return float64(pts[seat]) - float64(others)/float64(players-1)
}

// countryValue is the projection's part that one country decides: its monasteries,
// its alliances, and (for the chains) the whole of own monasteries.
func (e *evaluator) countryValue(t *kardinal.Table, c kardinal.Country) float64 {
	b := e.v.Board
	val := e.mult * e.relative(t.CountryPoints(c, e.n))
	for _, a := range b.Alliances() {
		if a.A != c && a.B != c {
			continue
		}
		val += e.relative(t.AlliancePoints(a, e.n))
		val += e.halfAlliance(t, a)
	}
	var buf [kardinal.MaxSpaces]int
	for _, l := range t.Chains(b, e.seat, buf[:0]) {
		if l >= kardinal.MinChain {
			val += float64(l)
		} else {
			val += chainCredit * float64(l*l)
		}
	}
	return val
}

// halfAlliance is the part credit for leading one side of an alliance whose other side
// nobody else leads yet.
func (e *evaluator) halfAlliance(t *kardinal.Table, a kardinal.Alliance) float64 {
	la, lb := t.AdvisorLeaders(a.A, e.n), t.AdvisorLeaders(a.B, e.n)
	if la[e.seat] == lb[e.seat] {
		return 0 // both (already scored) or neither
	}
	other := a.B
	if lb[e.seat] {
		other = a.A
	}
	if t.AdvisorsIn(other) > 0 {
		return 0
	}
	return allianceCredit * float64(t.AdvisorsIn(a.A)+t.AdvisorsIn(a.B)+1)
}

// gain is what placing p does to the projection.
func (e *evaluator) gain(t *kardinal.Table, p kardinal.Placement) float64 {
	before := e.countryValue(t, p.Country)
	after := *t
	e.apply(&after, p)
	return e.countryValue(&after, p.Country) - before
}

func (e *evaluator) apply(t *kardinal.Table, p kardinal.Placement) {
	if p.Advisor() {
		t.PlaceAdvisor(p.Country, e.seat)
	} else {
		t.PlaceMonastery(e.v.Board, e.seat, p.Space)
	}
}

func cost(p kardinal.Placement) float64 {
	if p.Joker {
		return jokerCost
	}
	return 0
}

// placeScore values a placement; a first piece with the best second one it allows.
func (e *evaluator) placeScore(p kardinal.Placement) float64 {
	t := &e.v.Table
	s := e.gain(t, p) - cost(p)
	if e.v.Phase != kardinal.PhaseTurn || t.Empty(p.Country) {
		return s
	}
	after := *t
	e.apply(&after, p)
	hand := e.v.Hand
	hand[p.Kind] -= uint8(p.Cards())
	mons, advs := e.v.Monasteries[e.seat], e.v.Advisors[e.seat]
	if p.Advisor() {
		advs--
	} else {
		mons--
	}
	return s + max(0, e.bestSecond(&after, &hand, p.Country, 3-p.Cards(), mons, advs))
}

// bestSecond is the best gain of a second piece in country c paid from hand.
func (e *evaluator) bestSecond(t *kardinal.Table, hand *[kardinal.NumKinds]uint8, c kardinal.Country, budget, mons, advs int) float64 {
	// The cheapest payment: one card naming c, else a joker.
	var pay float64
	switch {
	case budget >= 1 && hand[kardinal.KindOf(c)] > 0:
		pay = 0
	case budget >= 2 && hasPair(hand):
		pay = jokerCost
	default:
		return 0
	}
	best := 0.0
	if mons > 0 {
		for _, sp := range e.v.Board.SpacesOf(c) {
			if t.OwnerOf(int(sp)) < 0 {
				best = max(best, e.gain(t, kardinal.Placement{Country: c, Space: int(sp)})-pay)
			}
		}
	}
	if advs > 0 && t.CanTakeAdvisor(c) {
		best = max(best, e.gain(t, kardinal.Placement{Country: c, Space: kardinal.NoSpace})-pay)
	}
	return best
}

func hasPair(hand *[kardinal.NumKinds]uint8) bool {
	for _, n := range hand {
		if n >= 2 {
			return true
		}
	}
	return false
}

// usefulness is the best gain one card of kind k buys on the current table.
func (e *evaluator) usefulness(k kardinal.Kind) float64 {
	t := &e.v.Table
	best := 0.0
	for _, c := range k.Countries() {
		if e.v.Monasteries[e.seat] > 0 {
			for _, sp := range e.v.Board.SpacesOf(c) {
				if t.OwnerOf(int(sp)) < 0 {
					best = max(best, e.gain(t, kardinal.Placement{Country: c, Space: int(sp)}))
				}
			}
		}
		if e.v.Advisors[e.seat] > 0 && t.CanTakeAdvisor(c) {
			best = max(best, e.gain(t, kardinal.Placement{Country: c, Space: kardinal.NoSpace}))
		}
	}
	return best
}

// cardValue is a card's usefulness with the pair it would make in hand.
func (e *evaluator) cardValue(k kardinal.Kind, hand *[kardinal.NumKinds]uint8) float64 {
	u := e.usefulness(k)
	if hand[k] == 1 {
		u += pairBonus
	}
	return u
}

// pileValue is the expected cardValue of the top of the pile, over the cards not seen.
func (e *evaluator) pileValue(hand *[kardinal.NumKinds]uint8) float64 {
	total, sum := 0, 0.0
	for k := kardinal.Kind(0); k < kardinal.NumKinds; k++ {
		unseen := k.Count() - e.v.Removed - int(e.v.Discard[k]) - int(e.v.FaceUp[k]) - int(e.v.Hand[k])
		if unseen <= 0 {
			continue
		}
		total += unseen
		sum += float64(unseen) * e.cardValue(k, hand)
	}
	if total == 0 {
		return 0
	}
	return sum / float64(total)
}

func (e *evaluator) sourceValue(from int, hand *[kardinal.NumKinds]uint8) float64 {
	if from == kardinal.FromPile {
		return e.pileValue(hand)
	}
	return e.cardValue(kardinal.Kind(from), hand)
}

func (e *evaluator) takeScore(from int) float64 {
	hand := e.v.Hand
	return e.sourceValue(from, &hand)
}

// exchangeScore is slightly negative unless the exchange improves the hand, so that any
// worthwhile placement comes first.
func (e *evaluator) exchangeScore(discard kardinal.Kind, from int) float64 {
	hand := e.v.Hand
	lost := e.usefulness(discard)
	if hand[discard] >= 2 {
		lost += pairBonus // breaking a pair
	}
	hand[discard]--
	return exchangeScale*(e.sourceValue(from, &hand)-lost) - 0.05
}
