package ivanhoe

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
)

func TestSampler(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) { enginetest.CheckSampler(t, Spec(), Sampler(), n, 12) })
	}
}

// TestSamplerDistribution counts the kinds in the next seat's sampled hand at the first
// decision (nothing proven about it) against the unseen cards' proportions.
func TestSamplerDistribution(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		g, _ := New(3, n)
		me := g.ToMove()
		for _, e := range g.Log() {
			if e.Kind == uint8(EvRevealHand) {
				t.Fatalf("%d players: a hand was revealed in this deal; pick another seed", n)
			}
		}
		v := g.ViewOf(me)
		unseen := make([]int, NumCards)
		for c := Card(0); c < NumCards; c++ {
			unseen[c] = c.Count() - int(v.Hand[c]) - int(v.Discard[c])
		}
		observed := enginetest.SampledCounts(t, Sampler(), g, me, 2000, func(s engine.Game) []uint8 { return s.(*Game).hands[(me+1)%n][:] })
		enginetest.ChiSquare(t, observed, enginetest.Proportions(unseen))
	}
}

// TestSamplerProofsHold: what the sampler reads as proven (R7 hands shown, Knock Down,
// Retreat) is true in the real game at every decision, and every sample
// keeps it.
func TestSamplerProofsHold(t *testing.T) {
	proofs, reactions := 0, map[bool]int{}
	enginetest.EveryDecision(t, Spec(), Sampler(), 60, func(seed int) int { return MinPlayers + seed%4 }, func(eg, s engine.Game, me int, events []engine.Event) {
		g, sg := eg.(*Game), s.(*Game)
		var k knowledge
		if err := k.read(me, g.players, events); err != nil {
			t.Fatal(err)
		}
		for o := 0; o < g.players; o++ {
			if o != me {
				proofs += enginetest.ProvenHeld(t, o, k.known[o][:], g.hands[o][:], sg.hands[o][:])
			}
		}
		if g.phase == PhaseReaction && g.toMove != me {
			reactions[sg.hands[g.toMove][Ivanhoe] > 0]++
		}
	})
	// Every seat in the tournament is asked (R23a), so being asked proves nothing: the
	// seat asked is sampled now with Ivanhoe, now without.
	if proofs == 0 || reactions[true] == 0 || reactions[false] == 0 {
		t.Fatalf("%d proven cards; the seat asked to react sampled with Ivanhoe %d times, without %d times",
			proofs, reactions[true], reactions[false])
	}
}
