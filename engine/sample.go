package engine

import (
	"fmt"
	"sync"
)

// Sampler builds complete game states that one seat cannot tell from the real one: a
// determinization, for search bots (ISMCTS samples one per iteration) and for the
// arena. It takes only what the seat knows, its view and every event it has seen since
// the start of the game, so it can run in a bot process and can leak nothing hidden.
//
// A sample gives the seat exactly its view back (View(seat) equals view) and exactly
// its events (EventsFor(sample.Log(), seat, 0) equals events), and continues as a legal
// game. Everything the seat cannot see (the other hands, the order of the draw pile,
// the random future) is drawn from r; each game documents the distribution (uniform
// over the cards the seat has not seen, within what its events prove).
type Sampler interface {
	// Sample writes a sample into dst, which must be nil or a game an earlier call of
	// this sampler returned (it is then reused without allocating), and returns it. A
	// view or events that no game of this kind could produce give an error.
	Sample(dst Game, view View, events []Event, r *Rand) (Game, error)
}

// MakeSampler returns a game's sampler for games played with opts (a deck, say; nil
// is the defaults).
type MakeSampler func(opts Options) (Sampler, error)

var (
	samplerMu sync.RWMutex
	samplers  = map[string]MakeSampler{}
)

// RegisterSampler makes a game's samplers available by the game's name; game packages
// call it from init.
func RegisterSampler(game string, mk MakeSampler) {
	samplerMu.Lock()
	defer samplerMu.Unlock()
	samplers[game] = mk
}

// SamplerFor returns the sampler of a registered game played with opts.
func SamplerFor(game string, opts Options) (Sampler, error) {
	samplerMu.RLock()
	mk, ok := samplers[game]
	samplerMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("game %q has no sampler", game)
	}
	return mk(opts)
}

// Always is the MakeSampler of a game whose options a sampler does not need (none, or
// only ones every view carries).
func Always(s Sampler) MakeSampler { return func(Options) (Sampler, error) { return s, nil } }

// Pool is a multiset of cards as counts per kind: the cards a seat has not seen,
// from which samplers deal the hidden hands and the draw pile. Drawing every card in
// turn gives a uniformly random order, so each arrangement of the unseen cards is
// equally likely. It allocates nothing.
type Pool struct {
	Count []uint8 // per kind
	N     int     // the sum of Count
}

// Take removes n cards of kind k, failing when the pool lacks them: a seat's knowledge
// that contradicts itself.
func (p *Pool) Take(k, n int) error {
	if n < 0 || int(p.Count[k]) < n {
		return fmt.Errorf("sample: %d card(s) of kind %d wanted, %d unseen", n, k, p.Count[k])
	}
	p.Count[k] -= uint8(n)
	p.N -= n
	return nil
}

// Draw removes one card uniformly at random and returns its kind, or -1 when the pool
// is empty.
func (p *Pool) Draw(r *Rand) int {
	if p.N <= 0 {
		return -1
	}
	x := r.Intn(p.N)
	for k, c := range p.Count {
		if x < int(c) {
			p.Count[k]--
			p.N--
			return k
		}
		x -= int(c)
	}
	return -1
}
