package ismcts

import (
	"fmt"
	"time"

	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games" // every game and its sampler, for bot processes too
)

// Search is one seat's searcher, reused decision after decision so that its tree,
// sample and buffers are allocated once. It is not safe for concurrent use.
type Search struct {
	cfg     Config
	sampler engine.Sampler
	rnd     engine.Rand
	tree    tree
	sample  engine.Game
	path    []int32
	reward  []float64
	// Iterations counts the iterations of the last decision.
	Iterations int
}

// NewSearch makes a searcher for game played with opts (nil: the defaults), seeded for
// its own randomness.
func NewSearch(game string, opts engine.Options, seed uint64, cfg Config) (*Search, error) {
	s, err := engine.SamplerFor(game, opts)
	if err != nil {
		return nil, err
	}
	cfg = cfg.withGame(game)
	if cfg.Rollout == nil {
		cfg.Rollout = EpsilonGreedy(cfg.Policy, cfg.Epsilon) // this search's own view buffers
	}
	return &Search{cfg: cfg, sampler: s, rnd: engine.NewRand(seed), reward: make([]float64, engine.MaxSeats)}, nil
}

// Choose searches the decision of the seat of view and returns an index into options.
// events are every event the seat has seen since the start of the game. The search
// stops at the configured budget or at stop (the zero time: no such bound),
// whichever comes first, and always runs at least one iteration.
func (s *Search) Choose(view engine.View, events []engine.Event, options []engine.Option, stop time.Time) (int, error) {
	s.Iterations = 0
	if len(options) <= 1 {
		return 0, nil
	}
	if s.cfg.Time > 0 {
		if t := time.Now().Add(s.cfg.Time); stop.IsZero() || t.Before(stop) {
			stop = t
		}
	}
	s.tree.reset()
	if s.cfg.Prior > 0 {
		h := s.cfg.Policy.Choose(view, events, options)
		if h >= 0 && h < len(options) {
			s.tree.prefer(options[h], int8(view.ViewSeat()), int32(s.cfg.Prior))
		}
	}
	for s.cfg.Iterations <= 0 || s.Iterations < s.cfg.Iterations {
		if err := s.iterate(view, events); err != nil {
			return 0, err
		}
		s.Iterations++
		if !stop.IsZero() && time.Now().After(stop) {
			break
		}
	}
	if i := s.tree.best(options); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("ismcts: no searched option is among the %d real ones", len(options))
}

// iterate is one SO-ISMCTS iteration: sample, select and expand, play out, back up.
func (s *Search) iterate(view engine.View, events []engine.Event) error {
	g, err := s.sampler.Sample(s.sample, view, events, &s.rnd)
	if err != nil {
		return err
	}
	s.sample = g
	var model Rollout
	if s.cfg.Model {
		model = s.cfg.Rollout
	}
	if s.path, err = s.tree.descend(g, s.cfg.C, &s.rnd, s.path, view.ViewSeat(), model); err != nil {
		return err
	}
	for d := 0; !g.Terminal() && (s.cfg.Cutoff <= 0 || d < s.cfg.Cutoff); d++ {
		i := s.cfg.Rollout(g, &s.rnd)
		if i < 0 || i >= len(g.Options()) {
			i = g.Fallback()
		}
		if err := g.Apply(i); err != nil {
			return err
		}
	}
	reward := s.reward[:g.Players()]
	s.cfg.Evaluate(g, reward)
	s.tree.backup(s.path, reward)
	return nil
}
