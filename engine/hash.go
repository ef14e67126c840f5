package engine

// Hasher is 64-bit FNV-1a, fed field by field, for Game.Hash. It allocates nothing.
type Hasher struct{ h uint64 }

// NewHasher starts a digest.
func NewHasher() Hasher { return Hasher{h: 14695981039346656037} }

// Byte adds one byte.
func (h *Hasher) Byte(b uint8) {
	h.h ^= uint64(b)
	h.h *= 1099511628211
}

// Bytes adds a length-prefixed byte slice, so adjacent fields cannot blur together.
func (h *Hasher) Bytes(b []uint8) {
	h.Int(len(b))
	for _, x := range b {
		h.Byte(x)
	}
}

// Int adds an int.
func (h *Hasher) Int(v int) { h.U64(uint64(v)) }

// U64 adds 8 bytes.
func (h *Hasher) U64(v uint64) {
	for i := 0; i < 8; i++ {
		h.Byte(uint8(v >> (8 * i)))
	}
}

// Bool adds a flag.
func (h *Hasher) Bool(b bool) {
	if b {
		h.Byte(1)
	} else {
		h.Byte(0)
	}
}

// Sum returns the digest.
func (h *Hasher) Sum() uint64 { return h.h }
