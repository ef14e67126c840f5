// Package random is the reference bot that picks uniformly among the legal options, from
// its own seeded source so that a run can be replayed.
package random

import (
	"sync"

	"github.com/arena-games/arena/engine"
)

// Policy chooses uniformly at random. It is safe for concurrent use: one bot process
// serves many matches at once.
type Policy struct {
	mu  sync.Mutex
	rnd engine.Rand
}

// New returns a random policy seeded with seed.
func New(seed uint64) *Policy { return &Policy{rnd: engine.NewRand(seed)} }

// Choose returns a uniform index into options.
func (p *Policy) Choose(_ engine.View, _ []engine.Event, options []engine.Option) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rnd.Intn(len(options))
}
