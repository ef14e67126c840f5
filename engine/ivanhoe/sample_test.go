package ivanhoe

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
)

func TestSampler(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) { enginetest.CheckSampler(t, "ivanhoe", n, 12) })
	}
}

// TestSamplerDistribution counts the kinds in the next seat's sampled hand at the first
// decision (nothing proven about it) against the unseen cards' proportions.
func TestSamplerDistribution(t *testing.T) {
	g, _ := New(3, 3)
	me := g.ToMove()
	other := (me + 1) % 3
	for _, e := range g.Log() {
		if e.Kind == uint8(EvRevealHand) {
			t.Skip("a hand was revealed in this deal; pick another seed")
		}
	}
	v := g.ViewOf(me)
	var unseen [NumCards]float64
	total := 0.0
	for c := Card(0); c < NumCards; c++ {
		unseen[c] = float64(c.Count() - int(v.Hand[c]) - int(v.Discard[c]))
		total += unseen[c]
	}
	expected := make([]float64, NumCards)
	for c := range expected {
		expected[c] = unseen[c] / total
	}
	observed := make([]int, NumCards)
	events := engine.EventsFor(nil, g.Log(), me, 0)
	r := engine.NewRand(7)
	var dst engine.Game
	for i := 0; i < 4000; i++ {
		var err error
		if dst, err = Sampler.Sample(dst, v, events, &r); err != nil {
			t.Fatal(err)
		}
		for c, k := range dst.(*Game).hands[other] {
			observed[c] += int(k)
		}
	}
	enginetest.ChiSquare(t, observed, expected)
}

// TestSamplerProofsHold: what the sampler reads as proven (R7 hands shown, Knock Down,
// Retreat, the R23 holder) is true in the real game at every decision, and every sample
// keeps it.
func TestSamplerProofsHold(t *testing.T) {
	proofs, reactions := 0, 0
	for seed := uint64(0); seed < 60; seed++ {
		n := MinPlayers + int(seed)%4
		g, _ := New(seed, n)
		r := engine.NewRand(seed)
		for !g.Terminal() {
			me := int(seed) % n
			events := engine.EventsFor(nil, g.Log(), me, 0)
			var k knowledge
			if err := k.read(me, n, events); err != nil {
				t.Fatal(err)
			}
			v := g.ViewOf(me)
			s, err := Sampler.Sample(nil, v, events, &r)
			if err != nil {
				t.Fatal(err)
			}
			sg := s.(*Game)
			for o := 0; o < n; o++ {
				for c, x := range k.known[o] {
					if o != me && (x > g.hands[o][c] || x > sg.hands[o][c]) {
						t.Fatalf("seed %d: seat %d is proven to hold %d %s, holds %d, sampled %d", seed, o, x, Card(c), g.hands[o][c], sg.hands[o][c])
					}
					proofs += int(x)
				}
			}
			if g.phase == PhaseReaction && g.toMove != me {
				reactions++
				if sg.hands[g.toMove][Ivanhoe] == 0 {
					t.Fatalf("seed %d: the seat asked to react was sampled without Ivanhoe (R23)", seed)
				}
			}
			if err := g.Apply(r.Intn(len(g.Options()))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if proofs == 0 || reactions == 0 {
		t.Fatalf("%d proven cards and %d reactions came up", proofs, reactions)
	}
}
