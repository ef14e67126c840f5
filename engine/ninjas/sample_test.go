package ninjas

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
)

func TestSampler(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) { enginetest.CheckSampler(t, Spec(), Sampler(), n, 10) })
	}
}

// TestSamplerDistribution counts the kinds in the next seat's sampled hand at the first
// decision (nothing proven about it) against the unseen cards' proportions.
func TestSamplerDistribution(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		g, _ := New(5, n)
		me := g.ToMove()
		v := g.View(me).(*View)
		unseen := make([]int, NumKinds)
		for k := range unseen {
			unseen[k] = DefaultDeck()[k] - int(v.Hand[k]) - int(v.Discard[k])
		}
		observed := enginetest.SampledCounts(t, Sampler(), g, me, 3000, func(s engine.Game) []uint8 { return s.(*Game).hands[(me+1)%n][:] })
		enginetest.ChiSquare(t, observed, enginetest.Proportions(unseen))
	}
}

// TestSamplerProofsHold: what the sampler reads as proven (attack cards a Princess took)
// is true in the real game at every decision, and every sample keeps it.
func TestSamplerProofsHold(t *testing.T) {
	proofs := 0
	enginetest.EveryDecision(t, Spec(), Sampler(), 60, func(seed int) int { return MinPlayers + seed%5 }, func(g, s engine.Game, me int, events []engine.Event) {
		known, err := princessCards(me, g.Players(), events)
		if err != nil {
			t.Fatal(err)
		}
		for o := 0; o < g.Players(); o++ {
			proofs += enginetest.ProvenHeld(t, o, known[o][:], g.(*Game).hands[o][:], s.(*Game).hands[o][:])
		}
	})
	if proofs == 0 {
		t.Fatal("no proven card came up")
	}
}

// TestSamplerOfTheDeckOption: with the deck option, samples hold only that deck's
// cards (a deck without Jesters and more Peasants: no sampled hand holds a Jester).
func TestSamplerOfTheDeckOption(t *testing.T) {
	deck := DefaultDeck()
	deck[Peasant] += deck[Jester]
	deck[Jester] = 0
	text := ""
	for k, c := range deck {
		text += fmt.Sprintf("%s %d\n", Kind(k), c)
	}
	s, err := MakeSampler(engine.Options{OptionDeck: text})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewWithDeck(3, 4, deck)
	if err != nil {
		t.Fatal(err)
	}
	observed := enginetest.SampledCounts(t, s, g, g.ToMove(), 500, func(s engine.Game) []uint8 {
		var all [NumKinds]uint8
		for o := 0; o < 4; o++ {
			for k, c := range s.(*Game).hands[o] {
				all[k] += c
			}
		}
		return all[:]
	})
	if observed[Jester] != 0 || observed[Peasant] == 0 {
		t.Fatalf("sampled %d Jesters and %d Peasants from a deck of none and %d", observed[Jester], observed[Peasant], deck[Peasant])
	}
	if _, err := MakeSampler(engine.Options{OptionDeck: "Peasant 3"}); err == nil {
		t.Fatal("a bad deck option gave a sampler")
	}
}
