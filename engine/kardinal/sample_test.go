package kardinal

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
)

func TestSampler(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) { enginetest.CheckSampler(t, Spec(), Sampler(), n, 6) })
	}
}

// TestSamplerDistribution counts the kinds in the next seat's sampled hand at the first
// decision (nothing proven about it) against the unseen cards' proportions.
func TestSamplerDistribution(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		g, _ := New(5, n)
		me := g.ToMove()
		v := g.SeatView(me)
		unseen := make([]int, NumKinds)
		for k := Kind(0); k < NumKinds; k++ {
			unseen[k] = k.Count() - v.Removed - int(v.Hand[k]) - int(v.FaceUp[k]) - int(v.Discard[k])
		}
		observed := enginetest.SampledCounts(t, Sampler(), g, me, 3000, func(s engine.Game) []uint8 { return s.(*Game).hands[(me+1)%n][:] })
		enginetest.ChiSquare(t, observed, enginetest.Proportions(unseen))
	}
}

// TestSamplerProofsHold: what the sampler reads as proven (face-up cards another seat
// took) is true in the real game at every decision, and every sample keeps it.
func TestSamplerProofsHold(t *testing.T) {
	proofs := 0
	enginetest.EveryDecision(t, Spec(), Sampler(), 30, func(seed int) int { return MinPlayers + seed%3 }, func(g, s engine.Game, me int, events []engine.Event) {
		known, err := provenCards(me, g.Players(), events)
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
