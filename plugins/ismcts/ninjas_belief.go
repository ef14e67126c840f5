package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// Inference over every turn (Config.Belief). Infer keeps a replay of the moves since
// the last searched decision in proportion to how well it explains the other seats'
// moves there, but it samples that decision's state afresh: what the moves before
// said is forgotten once a decision passes. A belief carries it: the other seats'
// hands in the replays kept at one decision are, together, a sample of what the
// moves so far say they held then, which is the next decision's past. Each try
// deals its sampled past one of those hands (the pile swapping cards with the hand,
// ninjas.Game.SwapHand), and the replays it keeps carry the evidence of both
// stretches on to the next decision: a particle filter whose particles are hands,
// the draw pile dealt afresh each time. Where the belief is lost (a decision that
// does not replay, a reshuffle, no replay kept) the next decision samples its past
// afresh, as Infer does, and a belief grows again from there. Dealing only every
// other try's past a held hand, the rest afresh, gained nothing measurable
// (docs/performance.md).

// hands is every seat's hand in a kept replay (the searcher's own unused).
type hands [ninjas.MaxPlayers][ninjas.NumKinds]uint8

// belief is the hands of the replays kept at the last searched decision (held), and
// of those kept at this one so far (next, a uniform reservoir of seen); at is this
// decision's count of decisions played.
type belief struct {
	held, next []hands
	seen, at   int
}

// turn starts the searched decision of view, once however often it is called there:
// the hands gathered at the last one are held if this decision replays from it
// (inferring), else dropped.
func (b *belief) turn(view engine.View, inferring bool) {
	v, ok := view.(*ninjas.View)
	if !ok || v.Decisions == b.at && b.at > 0 {
		return
	}
	b.held, b.next, b.seen, b.at = b.next, b.held[:0], 0, v.Decisions
	if !inferring {
		b.held = b.held[:0]
	}
}

// believe deals g, a sample of the last searched decision's state, one held hand
// for each other seat, where its pile has the cards; unchanged where not.
func (s *Search) believe(sample engine.Game) {
	g, ok := sample.(*ninjas.Game)
	if !ok || s.cfg.Belief <= 0 || len(s.belief.held) == 0 || s.freshPast() {
		return
	}
	h := &s.belief.held[s.rnd.Intn(len(s.belief.held))]
	for seat := 0; seat < g.Players(); seat++ {
		if seat != s.self {
			g.SwapHand(seat, h[seat], &s.rnd)
		}
	}
}

// gather keeps the other seats' hands of g, a kept replay at the present, in the
// reservoir of Config.Belief hands for the next decision.
func (s *Search) gather(g engine.Game) {
	if s.cfg.Belief <= 0 {
		return
	}
	b := &s.belief
	b.seen++
	i := len(b.next)
	if i >= s.cfg.Belief {
		if i = s.rnd.Intn(b.seen); i >= s.cfg.Belief {
			return
		}
	} else {
		b.next = append(b.next, hands{})
	}
	for seat := 0; seat < g.Players(); seat++ {
		if seat != s.self {
			b.next[i][seat] = s.views.of(g, seat).(*ninjas.View).Hand
		}
	}
}
