package ismcts

import (
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
)

// Player is the ismcts bot for one seat of one match: an engine.Policy that keeps every
// event its seat has seen (a Policy hears only those since its previous decision) and
// searches each decision. The SDK gives it the arena's deadline through ChooseBy.
type Player struct {
	search   *Search
	events   []engine.Event
	fallback engine.Policy
	// Errors counts decisions the search could not make (a sampler refusing the
	// seat's knowledge); the heuristic answered those.
	Errors int
}

// New makes a player of game for one match and seat.
func New(game string, seed uint64, cfg Config) (*Player, error) {
	s, err := NewSearch(game, seed, cfg)
	if err != nil {
		return nil, err
	}
	return &Player{search: s, fallback: heuristic.New()}, nil
}

// Choose searches within the configured budget.
func (p *Player) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	return p.ChooseBy(time.Time{}, view, events, options)
}

// ChooseBy searches within the configured budget and never past deadline less its
// Margin.
func (p *Player) ChooseBy(deadline time.Time, view engine.View, events []engine.Event, options []engine.Option) int {
	p.events = append(p.events, events...)
	var stop time.Time
	if !deadline.IsZero() {
		stop = deadline.Add(-Margin(time.Until(deadline)))
		if time.Now().After(stop) { // no time to search: the heuristic answers at once
			return p.fallback.Choose(view, events, options)
		}
	}
	i, err := p.search.Choose(view, p.events, options, stop)
	if err != nil {
		p.Errors++
		return p.fallback.Choose(view, events, options)
	}
	return i
}

// Iterations is the number of iterations of the last decision.
func (p *Player) Iterations() int { return p.search.Iterations }
