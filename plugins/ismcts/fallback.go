package ismcts

import (
	"slices"

	"github.com/arena-games/arena/engine"
)

// fallbackShare is how often, at least, the heuristic's option must have been visited
// at the root against the chosen one before Config.Fallback may play it: a mean over
// a handful of play-outs tells nothing.
const fallbackShare = 10

// fallback is the option the search plays with Config.Fallback: the heuristic's
// (Config.Policy's) choice where the root's statistics do not tell it from the
// search's choice chosen, its mean reward within Fallback of chosen's and its
// visits at least 1/fallbackShare of chosen's; else chosen. A trial for five-player
// Kardinal, where more iterations and the true state gain nothing: among moves the
// play-outs value alike the search picks by noise, the heuristic by what it knows of
// jokers and alliances.
func (s *Search) fallback(view engine.View, events []engine.Event, options []engine.Option, chosen int) int {
	if s.cfg.Fallback <= 0 || chosen < 0 {
		return chosen
	}
	h := s.cfg.Policy.Choose(view, events, options)
	if h == chosen || h < 0 || h >= len(options) {
		return chosen
	}
	s.visits, s.rewards = slices.Grow(s.visits[:0], len(options))[:len(options)], slices.Grow(s.rewards[:0], len(options))[:len(options)]
	clear(s.visits)
	clear(s.rewards)
	for k := 0; k <= len(s.forest); k++ {
		s.treeAt(k).tally(options, s.visits, s.rewards)
	}
	vc, vh := s.visits[chosen], s.visits[h]
	if vc <= 0 || vh <= 0 || fallbackShare*vh < vc {
		return chosen
	}
	if s.rewards[h]/float64(vh) >= s.rewards[chosen]/float64(vc)-s.cfg.Fallback {
		return h
	}
	return chosen
}
