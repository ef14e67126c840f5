package ninjas

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
)

func TestSampler(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) { enginetest.CheckSampler(t, "ninjas", n, 10) })
	}
}

// TestSamplerDistribution counts the kinds in the next seat's sampled hand at the first
// decision (nothing proven about it) against the unseen cards' proportions.
func TestSamplerDistribution(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		g, _ := New(5, n)
		me := g.ToMove()
		other := (me + 1) % n
		v := g.View(me).(*View)
		expected := make([]float64, NumKinds)
		total := 0.0
		for k := Kind(0); k < NumKinds; k++ {
			expected[k] = float64(DefaultDeck[k] - int(v.Hand[k]) - int(v.Discard[k]))
			total += expected[k]
		}
		for k := range expected {
			expected[k] /= total
		}
		observed := make([]int, NumKinds)
		events := engine.EventsFor(nil, g.Log(), me, 0)
		r := engine.NewRand(11)
		var dst engine.Game
		for i := 0; i < 3000; i++ {
			var err error
			if dst, err = Sampler.Sample(dst, v, events, &r); err != nil {
				t.Fatal(err)
			}
			for k, c := range dst.(*Game).hands[other] {
				observed[k] += int(c)
			}
		}
		enginetest.ChiSquare(t, observed, expected)
	}
}

// TestSamplerProofsHold: what the sampler reads as proven (attack cards a Princess took)
// is true in the real game at every decision, and every sample keeps it.
func TestSamplerProofsHold(t *testing.T) {
	proofs := 0
	for seed := uint64(0); seed < 60; seed++ {
		n := MinPlayers + int(seed)%5
		g, _ := New(seed, n)
		r := engine.NewRand(seed)
		for !g.Terminal() {
			me := int(seed) % n
			events := engine.EventsFor(nil, g.Log(), me, 0)
			known, err := princessCards(me, n, events)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Sampler.Sample(nil, g.View(me), events, &r)
			if err != nil {
				t.Fatal(err)
			}
			for o := 0; o < n; o++ {
				for k, c := range known[o] {
					if c > g.hands[o][k] || c > s.(*Game).hands[o][k] {
						t.Fatalf("seed %d: seat %d is proven to hold %d of kind %d, holds %d, sampled %d", seed, o, c, k, g.hands[o][k], s.(*Game).hands[o][k])
					}
					proofs += int(c)
				}
			}
			if err := g.Apply(r.Intn(len(g.Options()))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if proofs == 0 {
		t.Fatal("no proven card came up")
	}
}
