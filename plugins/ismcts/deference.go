package ismcts

import "github.com/arena-games/arena/engine"

// deferShare is how often, at least, the heuristic's option must have been visited
// at the root against the chosen one before Config.Defer may play it: a mean over
// a handful of play-outs tells nothing.
const deferShare = 10

// deferTo is the option the search plays with Config.Defer: the heuristic's
// (Config.Policy's) choice where the root's statistics do not tell it from the
// search's choice chosen, its mean reward within Defer of chosen's and its
// visits at least 1/deferShare of chosen's; else chosen. A trial for five-player
// Kardinal, where more iterations and the true state gain nothing and the root's
// means of the two moves are often a few thousandths apart: among moves the
// play-outs value alike, the heuristic knows the price of a joker and the worth of a
// half-made alliance. It gained nothing there (docs/performance.md), so it is off.
func (s *Search) deferTo(view engine.View, events []engine.Event, options []engine.Option, chosen int) int {
	if s.cfg.Defer <= 0 || chosen < 0 {
		return chosen
	}
	h := s.cfg.Policy.Choose(view, events, options)
	if h == chosen || h < 0 || h >= len(options) {
		return chosen
	}
	s.tallyRoots(options)
	vc, vh := s.visits[chosen], s.visits[h]
	if vc <= 0 || vh <= 0 || deferShare*vh < vc {
		return chosen
	}
	if s.rewards[h]/float64(vh) >= s.rewards[chosen]/float64(vc)-s.cfg.Defer {
		return h
	}
	return chosen
}
