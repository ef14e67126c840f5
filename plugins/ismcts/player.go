package ismcts

import (
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/protocol"
)

// Player is the ismcts bot for one seat of one match: an engine.Policy that keeps every
// event its seat has seen (a Policy hears only those since its previous decision) and
// searches each decision. The SDK gives it the arena's clock through ChooseWithin.
type Player struct {
	search   *Search
	events   []engine.Event
	fallback engine.Policy
	// Errors counts decisions the search could not make (a sampler refusing the
	// seat's knowledge); the heuristic answered those.
	Errors int
}

// New makes a player of game for one match and seat, with the game's default options.
func New(game string, seed uint64, cfg Config) (*Player, error) {
	return newPlayer(game, nil, seed, cfg)
}

// ForMatch makes a player for one match and seat of the SDK: its game, options and seed.
func ForMatch(m protocol.Match, cfg Config) (*Player, error) {
	return newPlayer(m.Game, m.Options, m.Seed, cfg)
}

func newPlayer(game string, opts engine.Options, seed uint64, cfg Config) (*Player, error) {
	s, err := NewSearch(game, opts, seed, cfg)
	if err != nil {
		return nil, err
	}
	return &Player{search: s, fallback: heuristic.New()}, nil
}

// Choose searches within the configured budget.
func (p *Player) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	return p.ChooseBy(time.Time{}, 0, view, events, options)
}

// ChooseBy searches within the configured budget and never past deadline less its
// Margin, nor past bankShare of bank (0: no bank), so that a bank lasts the match.
func (p *Player) ChooseBy(deadline time.Time, bank time.Duration, view engine.View, events []engine.Event, options []engine.Option) int {
	p.events = append(p.events, events...)
	var stop time.Time
	if !deadline.IsZero() {
		now := p.search.now()
		stop = deadline.Add(-Margin(deadline.Sub(now)))
		if bank > 0 {
			if t := now.Add(bank / bankShare); t.Before(stop) {
				stop = t
			}
		}
		if now.After(stop) { // no time to search: the heuristic answers at once
			return p.fallback.Choose(view, events, options)
		}
	}
	i, err := p.search.Choose(view, p.events, options, stop)
	switch {
	case err != nil:
		p.Errors++
		return p.fallback.Choose(view, events, options)
	case p.search.Cut && p.search.Iterations < minSearched:
		return p.fallback.Choose(view, events, options)
	}
	return i
}

// minSearched is the fewest iterations whose choice the player trusts when the clock
// cut a search short (a stalling machine): fewer pick little better than chance, and
// the heuristic answers instead.
const minSearched = 100

// bankShare: a decision spends at most this fraction of the bank left, so the bank
// shrinks geometrically and never runs out.
const bankShare = 20

// ChooseWithin is ChooseBy with the arena's clock, for the SDK (protocol.Timed).
func (p *Player) ChooseWithin(c protocol.Clock, view engine.View, events []engine.Event, options []engine.Option) int {
	return p.ChooseBy(c.Deadline, c.Bank, view, events, options)
}

// Iterations is the number of iterations of the last decision.
func (p *Player) Iterations() int { return p.search.Iterations }
