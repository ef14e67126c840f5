package ninjas

import (
	"math/bits"

	"github.com/arena-games/arena/engine"
)

// kindPool draws as engine.Pool does, the same kinds for the same random numbers, but
// finds the kind at a drawn position without a loop over the kinds: it keeps the
// running totals of the sixteen kinds' counts, a byte each (the deck's 95 cards fit in
// seven bits), eight to a word, and counts the totals at or below the position in a few
// word operations. A sample deals the whole draw pile a card at a time, so this is the
// search's dealing.
type kindPool struct {
	lo, hi uint64 // the running totals through kinds 0-7 and 8-15, kind k in byte k%8
	n      int    // the cards left
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Compile-time checks of what the words assume: sixteen kinds, and totals below 128.
var (
	_ [NumKinds - 16]struct{}
	_ [16 - NumKinds]struct{}
	_ [127 - DeckSize]struct{}
)

func newKindPool(p *engine.Pool) kindPool {
	var k kindPool
	total := uint64(0)
	for i, c := range p.Count {
		total += uint64(c)
		if i < 8 {
			k.lo |= total << (8 * i)
		} else {
			k.hi |= total << (8 * (i - 8))
		}
	}
	k.n = p.N
	return k
}

// draw removes one card uniformly at random and returns its kind, or -1 when the pool
// is empty: engine.Pool.Draw's kind for the same random number.
func (k *kindPool) draw(r *engine.Rand) int {
	if k.n <= 0 {
		return -1
	}
	x := uint64(r.Intn(k.n)) * ones
	// The kind drawn is the first whose running total exceeds x: the number of totals
	// at or below it. A byte of (x|0x80) - total keeps its high bit exactly when
	// total <= x, and borrows from no neighbour, both being below 128.
	kind := bits.OnesCount64(((x|highs)-k.lo)&highs) + bits.OnesCount64(((x|highs)-k.hi)&highs)
	// One fewer in every total from kind on, without a branch: a shift of 64 or more
	// makes 0, and the high word's shift is 0 below kind 8.
	sh := uint(8 * kind)
	k.lo -= ones << sh
	k.hi -= ones << ((sh - 64) & -(sh >> 6))
	k.n--
	return kind
}
