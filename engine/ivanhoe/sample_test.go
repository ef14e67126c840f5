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
