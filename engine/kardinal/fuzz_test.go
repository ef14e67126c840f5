package kardinal

import (
	"errors"
	"testing"

	"github.com/arena-games/arena/engine"
)

// FuzzKardinal drives the engine with arbitrary option indices, out-of-range ones
// included: illegal ones must be refused without a change, nothing may panic, and the
// invariants hold after every decision.
func FuzzKardinal(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 1, 2, 3, 255, 7})
	f.Add(uint64(42), uint8(1), []byte{9, 9, 9, 0, 0, 0, 128, 1})
	f.Add(uint64(7), uint8(2), []byte{})
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, data []byte) {
		g, err := New(seed, MinPlayers+int(players)%3)
		if err != nil {
			t.Fatal(err)
		}
		step := 0
		for !g.Terminal() {
			n := len(g.Options())
			var i int
			if step < len(data) {
				b := data[step]
				switch {
				case b == 255:
					i = 1 << 30
				case b >= 240:
					i = -int(b - 239)
				default:
					i = int(b) % (n + 1) // n itself is out of range
				}
			} else {
				i = g.Fallback()
			}
			step++
			h := g.Hash()
			if err := g.Apply(i); err != nil {
				if i >= 0 && i < n {
					t.Fatalf("legal index %d of %d refused: %v", i, n, err)
				}
				if !errors.Is(err, engine.ErrIllegal) {
					t.Fatalf("error does not wrap ErrIllegal: %v", err)
				}
				if g.Hash() != h {
					t.Fatal("a refused option changed the state")
				}
			}
			checkInvariants(t, g)
			if step > 4*MaxDecisions {
				t.Fatal("the game does not end")
			}
		}
		_ = g.Result()
	})
}
