package engine

// Rand is the seeded random source of a game: a PCG-XSH-RR-style 64-bit generator held by
// value, so that copying a game state copies its random future too (Clone stays exact)
// and nothing allocates. math/rand/v2's PCG would also copy by value, but its methods
// want a pointer receiver wrapped in rand.Rand, which allocates; this is small enough to
// own.
type Rand struct{ state, inc uint64 }

// NewRand seeds a source; equal seeds give equal streams.
func NewRand(seed uint64) Rand {
	r := Rand{inc: (seed<<1 | 1) ^ 0xda3e39cb94b95bdb}
	r.Uint64()
	r.state += seed ^ 0x853c49e6748fea9b
	r.Uint64()
	return r
}

// Uint64 returns the next 64 random bits (two 32-bit PCG outputs).
func (r *Rand) Uint64() uint64 { return uint64(r.next32())<<32 | uint64(r.next32()) }

func (r *Rand) next32() uint32 {
	old := r.state
	r.state = old*6364136223846793005 + r.inc
	x := uint32(((old >> 18) ^ old) >> 27)
	rot := uint32(old >> 59)
	return x>>rot | x<<((-rot)&31)
}

// Intn returns a uniform integer in [0, n); n must be positive. Lemire's multiply-shift
// with rejection keeps it unbiased.
func (r *Rand) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	bound := uint32(n)
	m := uint64(r.next32()) * uint64(bound)
	if lo := uint32(m); lo < bound {
		t := -bound % bound
		for lo < t {
			m = uint64(r.next32()) * uint64(bound)
			lo = uint32(m)
		}
	}
	return int(m >> 32)
}

// ShuffleBytes permutes s uniformly.
func (r *Rand) ShuffleBytes(s []uint8) { Shuffle(r, s) }

// Shuffle permutes s uniformly (Fisher-Yates) with r.
func Shuffle[T any](r *Rand, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// Hash folds the source's state into h (see Hasher).
func (r *Rand) Hash(h *Hasher) { h.U64(r.state); h.U64(r.inc) }
