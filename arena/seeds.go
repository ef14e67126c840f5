package arena

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
)

// Seeds. A run's seed (Config.Seed) is the operator's secret: every deal and every
// bot's seed derive from it through HMAC-SHA256, a one-way function, so that nothing a
// bot receives (its own seed, the match id with its deal and rotation, its seat) leads
// back to the run's seed or to a deal. A bot could still guess a seed that is easy to
// guess (1, say) and check a guess against its own hand: NewSeed draws 64 random
// bits, which no bot can search within a match.

// NewSeed draws a run's seed from the operating system's entropy.
func NewSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails on Linux (crypto/rand panics instead)
	return binary.LittleEndian.Uint64(b[:])
}

// dealSeed is the seed of deal d of a run: every rotation of the deal plays it.
func dealSeed(run uint64, d int) uint64 { return derive(run, "deal", uint64(d)) }

// botSeed is the seed a bot gets for its own randomness in one seat of one match.
func botSeed(run uint64, d, rotation, seat int) uint64 {
	return derive(run, "bot", uint64(d), uint64(rotation), uint64(seat))
}

// derive is the first 64 bits of HMAC-SHA256 keyed with the run's seed, over a label
// that keeps the uses apart and the numbers that name one of them.
func derive(key uint64, label string, parts ...uint64) uint64 {
	var k [8]byte
	binary.LittleEndian.PutUint64(k[:], key)
	h := hmac.New(sha256.New, k[:])
	h.Write([]byte(label))
	var b [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], p)
		h.Write(b[:])
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}
