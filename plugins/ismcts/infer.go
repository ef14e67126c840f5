package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// Inference in the samplers (Config.Infer): the game's sampler deals the cards a seat
// has not seen uniformly, but the other seats' moves since the searcher's last decision
// say something about them (a seat that lets an attack through likely held nothing to
// answer it with). Where the game's events name every move (Ninjas), an iteration
// samples the state of the last decision instead, replays the moves made since, and
// keeps the result with the probability the opponent model (the rollout policy with
// its random share) gives each other seat's observed move, relative to the likeliest
// move: the kept states are drawn in proportion to how well they explain what the
// others did. A replay that does not end in the present view (a card the searcher drew
// came out otherwise) is dropped. After Infer failed tries the iteration samples
// the present as before, and a decision whose first tries keep nothing stops trying.

// past is what an inferring search keeps of its last searched decision.
type past struct {
	valid     bool
	view      ninjas.View
	events    int // the events seen then
	decisions int
}

// inferGiveUp: a decision's first inferGiveUp iterations must keep one replay, or
// the search stops replaying for that decision (the moves since are such that no
// replay reaches the present, say a card the seat drew).
const inferGiveUp = 32

// remember keeps view as the last searched decision, where inference can use it.
func (p *past) remember(view engine.View, events []engine.Event) {
	v, ok := view.(*ninjas.View)
	p.valid = ok
	if ok {
		p.view, p.events, p.decisions = *v, len(events), v.Decisions
	}
}

// inference readies a decision's replays: the moves since the last searched decision,
// when the events name them all. It reports whether there are any to replay.
func (s *Search) inference(view engine.View, events []engine.Event) bool {
	s.replay = s.replay[:0]
	v, ok := view.(*ninjas.View)
	if s.cfg.Infer <= 0 || !ok || !s.past.valid || s.past.events > len(events) || s.past.view.Seat != v.Seat {
		return false
	}
	for _, e := range events[s.past.events:] {
		if o, ok := ninjasOption(e); ok {
			s.replay = append(s.replay, move{seat: e.Seat, opt: o})
		}
	}
	others := false
	for _, m := range s.replay {
		others = others || int(m.seat) != v.Seat
	}
	s.present, s.kept, s.tried = *v, 0, 0
	var drew bool
	s.pastEvents, drew = heldCards(append(s.pastEvents[:0], events[:s.past.events]...), events[s.past.events:], v.Seat)
	if drew && (s.cfg.Drawn <= 0 || !s.ownDraws(events[s.past.events:], v.Seat)) {
		return false
	}
	return (others || s.carries(v.Decisions)) && len(s.replay) == v.Decisions-s.past.decisions
}

// drawn is a card self drew since the last searched decision, depth cards below what
// was then the top of the draw pile.
type drawn struct {
	depth int
	kind  ninjas.Kind
}

// ownDraws reads from the events since the last searched decision the cards self drew
// there and how deep in the pile each lay then (Config.Drawn), so that replays can
// deal self those cards; false where a reshuffle since makes the depths unknowable.
func (s *Search) ownDraws(since []engine.Event, self int) bool {
	s.draws, s.fixed = s.draws[:0], s.fixed[:0]
	depth := 0
	for _, e := range since {
		switch ninjas.EventKind(e.Kind) {
		case ninjas.EvReshuffle:
			return false
		case ninjas.EvDrawCard:
			if int(e.Seat) == self {
				s.draws = append(s.draws, drawn{depth: depth, kind: ninjas.Kind(e.A)})
				depth++
			}
		case ninjas.EvDraw:
			if int(e.Seat) != self {
				depth += int(e.A)
			}
		}
	}
	return true
}

// stack arranges g's draw pile, a sample of the last searched decision's state, to
// deal self the cards it has drawn since; false when the sample's pile lacks one.
func (s *Search) stack(g engine.Game) bool {
	x, ok := g.(*ninjas.Game)
	if !ok {
		return len(s.draws) == 0
	}
	s.fixed = s.fixed[:0]
	for _, d := range s.draws {
		if !x.StackPile(d.depth, d.kind, s.fixed, &s.rnd) {
			return false
		}
		s.fixed = append(s.fixed, d.depth)
	}
	return true
}

// heldCards appends to past, for each card another seat played in the events since,
// an event the sampler reads as that card proven in that hand (a Princess's take): a
// replay needs the card there, and a state sampled without it cannot play the move.
// (A card the seat drew since is put in its hand too early; the replay's draw then
// deals it another card: a small bias against dropping nearly every replay.) It also reports whether self drew since:
// a replay then deals self other cards than it holds, and none ends in the present.
func heldCards(past, since []engine.Event, self int) ([]engine.Event, bool) {
	var drew [ninjas.MaxPlayers]bool
	for _, e := range since {
		k := ninjas.EventKind(e.Kind)
		if (k == ninjas.EvDraw || k == ninjas.EvDrawCard) && e.Seat >= 0 && int(e.Seat) < len(drew) {
			drew[e.Seat] = true
		}
	}
	for _, e := range since {
		if e.Seat < 0 || int(e.Seat) >= len(drew) || int(e.Seat) == self {
			continue
		}
		held := engine.Event{Kind: uint8(ninjas.EvPrincess), Audience: engine.Everyone, Seat: e.Seat, A: e.A, C: e.C & ninjas.JesterFlag}
		count := int16(1)
		switch ninjas.EventKind(e.Kind) {
		case ninjas.EvAttack, ninjas.EvRespond:
			if held.C == 0 {
				count = e.C
			}
		case ninjas.EvHighwayman:
			held.A = int16(ninjas.Highwayman)
		case ninjas.EvFortify, ninjas.EvDiscard:
		default:
			continue
		}
		for ; count > 0; count-- {
			past = append(past, held)
		}
	}
	return past, self < len(drew) && drew[self]
}

// sampleInferred is an iteration's sample: a replay kept as inference says, or after
// Infer failed tries (or once the decision gave up on replays) a sample of the present.
func (s *Search) sampleInferred(view engine.View, events []engine.Event) (engine.Game, error) {
	for try := 0; s.inferring && try < s.cfg.Infer; try++ {
		g, err := s.sampler.Sample(s.sample, &s.past.view, s.pastEvents, &s.rnd)
		if err != nil { // the cards proven held do not fit: sample the present
			s.inferring = false
			break
		}
		s.sample = g
		s.tried++
		s.believe(g)
		if s.stack(g) && s.replayed(g) {
			s.kept++
			s.gather(g)
			return g, nil
		}
		if s.tried >= inferGiveUp && s.kept == 0 {
			s.inferring = false
		}
	}
	g, err := s.sampler.Sample(s.sample, view, events, &s.rnd)
	if err == nil {
		s.sample = g
	}
	return g, err
}

// replayed plays the moves since the last searched decision on g, a sample of that
// decision's state, and reports whether g is kept: each other seat's move passes with
// its likelihood under the model over the likeliest move's, and the end is the present
// view.
func (s *Search) replayed(g engine.Game) bool {
	eps := s.cfg.Epsilon // the model's random share for the other seats, as in play-outs
	if s.cfg.Others > 0 {
		eps = min(s.cfg.Others, 1)
	}
	if s.cfg.Trust > 0 {
		eps = s.cfg.Trust
	}
	for _, m := range s.replay {
		opts := g.Options()
		i := optionIndex(opts, m.opt)
		if i < 0 || g.ToMove() != int(m.seat) {
			return false
		}
		if int(m.seat) != s.self && len(opts) > 1 {
			n := float64(len(opts))
			top, p := 1-eps+eps/n, eps/n
			if s.cfg.Policy.Choose(s.views.of(g, int(m.seat)), nil, opts) == i {
				p = top
			}
			if p < top && float64(s.rnd.Uint64()>>11)/(1<<53)*top >= p {
				return false
			}
		}
		if err := g.Apply(i); err != nil {
			return false
		}
	}
	v, ok := s.views.of(g, s.self).(*ninjas.View)
	return ok && *v == s.present
}

// optionIndex is o's index in opts, or -1.
func optionIndex(opts []engine.Option, o engine.Option) int {
	for i, x := range opts {
		if x == o {
			return i
		}
	}
	return -1
}
