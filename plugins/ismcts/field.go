package ismcts

import (
	"math"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// The field model (Config.Field): which policy the search expects of each other seat.
// The play-outs model every other seat as the rollout policy (the heuristic with a
// tenth of its moves random), which is right against the heuristic and strong bots
// and wrong against a weak field: against random players the search plays as if its
// opponents were better than they are (five-player Ninjas: 0.74 against the
// heuristic's 0.86, and 0.88 when the other seats are modelled as random). With
// FieldAuto each other seat is judged by its own observed moves (Ninjas, where the
// events name every move): its log-likelihood ratio of the heuristic model over the
// uniform one, summed over its moves so far, sets the share of its play-out moves
// made uniformly (the posterior of the uniform model, from prior odds of e to 1 for
// the heuristic), and once the ratio is below -fieldThreshold the seat plays
// uniformly in play-outs and where the tree chooses for it.

// Field models of Config.Field.
const (
	FieldHeuristic = -1 // every other seat plays the rollout policy
	FieldAuto      = 1  // each other seat as its moves so far say (Ninjas only)
	FieldRandom    = 2  // every other seat plays uniformly, in play-outs and the tree
)

// The detector's constants. Each stretch of moves between two of the searching seat's
// decisions adds to each other seat's log-likelihood ratio log(P(moves | heuristic) /
// P(moves | uniform)), both averaged over fieldReplays replays of sampled states, and
// at most fieldClamp either way. The heuristic model keeps a random share of
// fieldEpsilon. A seat's play-out moves are uniform with the posterior probability of
// the uniform model from prior log-odds fieldPrior for the heuristic (0.27 without
// evidence; from the searching seat's second decision, the first judged), and always
// once the ratio is below -fieldThreshold (odds of e^2 to 1 for the uniform model, e^3
// after the prior). Over 200 deals each of four- to six-player Ninjas
// (TestDetectorSeesRandomSeats) these held 2-7% of heuristic seats random at some
// decision of a game (1-3% at its end) and found 68-79% of the random seats, at the
// searching seat's third or fourth decision on average; a threshold of 4 erred a third
// as often, found 30% fewer a decision later, and in play gained less
// (docs/performance.md).
const (
	fieldReplays   = 48
	fieldEpsilon   = 0.1
	fieldThreshold = 2.0
	fieldClamp     = 5.0
	fieldPrior     = 1.0
)

// detector judges the other seats of one searching seat from their moves, replaying
// the moves since the seat's last judged decision on samples of that decision's state.
// A seat's evidence from the moves since is the likelihood of all its moves together
// under each model, averaged over the replays: the heuristic's moves depend on the
// cards it holds, which a sample deals at random, and a replay whose hand explains
// every move counts for the hand it dealt. It draws from its own random stream, so
// that judging leaves the search's stream as it was.
type detector struct {
	llr     [engine.MaxSeats]float64
	uniform [engine.MaxSeats]bool
	any     bool // some seat is uniform
	// share is the cut below which a seat's play-out move is uniform: the posterior
	// of the uniform model, of 1<<53
	share  [engine.MaxSeats]uint64
	past   past
	rnd    engine.Rand
	sample engine.Game
	moves  []move
	events []engine.Event
	views  viewBuffer
	// per replay and seat: the log-likelihoods of the seat's moves under the
	// heuristic and under the uniform player
	heur, unif [][engine.MaxSeats]float64
}

func newDetector(seed uint64) detector { return detector{rnd: engine.NewRand(seed ^ 0x6669656c64)} }

// observe judges the moves made since the last observed decision, seen from view with
// events (every event its seat has seen), and remembers this decision.
func (d *detector) observe(sampler engine.Sampler, policy engine.Policy, view engine.View, events []engine.Event) {
	defer d.past.remember(view, events)
	v, ok := view.(*ninjas.View)
	if !ok || !d.past.valid || d.past.events > len(events) || d.past.view.Seat != v.Seat {
		return
	}
	d.moves = d.moves[:0]
	for _, e := range events[d.past.events:] {
		if o, ok := ninjasOption(e); ok {
			d.moves = append(d.moves, move{seat: e.Seat, opt: o})
		}
	}
	if len(d.moves) != v.Decisions-d.past.decisions { // not every move is named
		return
	}
	d.events, _ = heldCards(append(d.events[:0], events[:d.past.events]...), events[d.past.events:], v.Seat)
	d.heur, d.unif = d.heur[:0], d.unif[:0]
	for k := 0; k < fieldReplays; k++ {
		g, err := sampler.Sample(d.sample, &d.past.view, d.events, &d.rnd)
		if err != nil {
			return
		}
		d.sample = g
		var h, u [engine.MaxSeats]float64
		if d.replay(g, policy, v.Seat, &h, &u) {
			d.heur, d.unif = append(d.heur, h), append(d.unif, u)
		}
	}
	if len(d.heur) == 0 {
		return
	}
	d.any = false
	for s := range d.llr {
		if s != v.Seat {
			d.llr[s] += max(-fieldClamp, min(fieldClamp, logMeanExp(d.heur, s)-logMeanExp(d.unif, s)))
			d.share[s] = uint64((1 << 53) / (1 + math.Exp(d.llr[s]+fieldPrior)))
		}
		d.uniform[s] = d.llr[s] < -fieldThreshold
		d.any = d.any || d.uniform[s]
	}
}

// replay plays the moves since on g, adding to h and u each other seat's
// log-likelihood of its moves with a choice, and reports whether every move was legal
// on g (a sample that dealt otherwise is not counted).
func (d *detector) replay(g engine.Game, policy engine.Policy, self int, h, u *[engine.MaxSeats]float64) bool {
	for _, m := range d.moves {
		opts := g.Options()
		i := optionIndex(opts, m.opt)
		if i < 0 || g.ToMove() != int(m.seat) {
			return false
		}
		if int(m.seat) != self && len(opts) > 1 {
			n := float64(len(opts))
			p := fieldEpsilon / n
			if policy.Choose(d.views.of(g, int(m.seat)), nil, opts) == i {
				p += 1 - fieldEpsilon
			}
			h[m.seat] += math.Log(p)
			u[m.seat] -= math.Log(n)
		}
		if g.Apply(i) != nil {
			return false
		}
	}
	return true
}

// logMeanExp is the log of the mean of exp(x[r][s]) over the replays r.
func logMeanExp(x [][engine.MaxSeats]float64, s int) float64 {
	top := math.Inf(-1)
	for _, r := range x {
		top = max(top, r[s])
	}
	sum := 0.0
	for _, r := range x {
		sum += math.Exp(r[s] - top)
	}
	return top + math.Log(sum/float64(len(x)))
}

// uniformSeats wraps a rollout so that the seats the field model plays uniformly
// (other than self) choose uniformly; with tree set, the others answer byUCB, so
// that the tree chooses for them as without a model.
func uniformSeats(rollout Rollout, uniform *[engine.MaxSeats]bool, share *[engine.MaxSeats]uint64, self *int, tree bool) Rollout {
	return func(g engine.Game, r *engine.Rand) int {
		s := g.ToMove()
		switch {
		case s != *self && s >= 0 && s < len(uniform) && uniform[s]:
			return r.Intn(len(g.Options()))
		case !tree && share != nil && s != *self && share[s] > 0 && r.Uint64()>>11 < share[s]:
			return r.Intn(len(g.Options()))
		case tree:
			return byUCB
		}
		return rollout(g, r)
	}
}

// byUCB is a tree model's answer that leaves the choice to UCB (see tree.descend).
const byUCB = math.MinInt32
