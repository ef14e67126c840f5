package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// playoutCutoff is the cutoff of a play-out from g: Config.Cutoff, but none (play to
// the end) in Kardinal with Config.Endgame where the interim scoring is past and at
// most Endgame cards are left in the draw pile. Alliances score only in the final
// scoring (K11) and every seat ends with as many turns (K10); a play-out cut off in
// the last round scores the seats by a projection that counts neither the turns
// still to come nor who can still contest a majority, and a play-out to the end
// does, at the price of a longer play-out late in the game only.
func (s *Search) playoutCutoff(g engine.Game) int {
	if s.cfg.Endgame <= 0 || s.cfg.Cutoff <= 0 {
		return s.cfg.Cutoff
	}
	if k, ok := g.(*kardinal.Game); ok && k.InterimDone() && k.DrawPile() <= s.cfg.Endgame {
		return 0
	}
	return s.cfg.Cutoff
}
