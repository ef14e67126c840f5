package ninjas

import (
	"errors"
	"testing"

	"github.com/arena-games/arena/engine"
)

// FuzzNinjas drives games with arbitrary option indices, out-of-range and negative ones
// included: nothing panics, an illegal index changes nothing, every invariant holds.
func FuzzNinjas(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{0, 1, 2, 3, 200, 255, 7})
	f.Add(uint64(42), uint8(4), []byte{9, 9, 9, 9, 9, 9, 9, 9, 128, 129})
	f.Add(uint64(7), uint8(2), []byte("the quick brown fox jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, choices []byte) {
		g, err := New(seed, MinPlayers+int(players)%(MaxPlayers-MinPlayers+1))
		if err != nil {
			t.Fatal(err)
		}
		apply := func(i int) {
			n := len(g.Options())
			h := g.Hash()
			err := g.Apply(i)
			if i < 0 || i >= n {
				if !errors.Is(err, engine.ErrIllegal) || g.Hash() != h {
					t.Fatalf("index %d of %d: err %v, state changed %v", i, n, err, g.Hash() != h)
				}
				return
			}
			if err != nil {
				t.Fatalf("index %d of %d: %v", i, n, err)
			}
			if err := checkInvariants(g); err != nil {
				t.Fatal(err)
			}
		}
		for _, b := range choices {
			if g.Terminal() {
				break
			}
			if b&0x80 != 0 {
				apply(int(b&0x7f) - 8) // often out of range, sometimes negative
			} else {
				apply(int(b) % len(g.Options()))
			}
		}
		r := engine.NewRand(seed)
		for !g.Terminal() {
			apply(r.Intn(len(g.Options())))
		}
		if err := checkGemsEndTurn(g.log); err != nil {
			t.Fatal(err)
		}
	})
}
