package ninjas

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
)

// TestKindPoolDrawsAsThePool: the sampler's word-wise pool deals the same kinds as
// engine.Pool for the same random numbers, down to the last card, from pools of every
// shape (kinds missing, the whole deck, one kind only), so the search's samples are the
// ones it dealt before.
func TestKindPoolDrawsAsThePool(t *testing.T) {
	r := engine.NewRand(7)
	for trial := 0; trial < 2000; trial++ {
		var counts [NumKinds]uint8
		pool := engine.Pool{Count: counts[:]}
		for k := range counts {
			switch trial % 4 {
			case 0: // the whole deck
				counts[k] = uint8(DefaultDeck()[k])
			case 1: // one kind only
				if k == trial%int(NumKinds) {
					counts[k] = uint8(r.Intn(20) + 1)
				}
			default: // any counts, some kinds missing
				if r.Intn(3) > 0 {
					counts[k] = uint8(r.Intn(8))
				}
			}
			pool.N += int(counts[k])
		}
		fast := newKindPool(&pool)
		a, b := engine.NewRand(uint64(trial)), engine.NewRand(uint64(trial))
		for i := 0; ; i++ {
			want, got := pool.Draw(&a), fast.draw(&b)
			require.Equal(t, want, got, "trial %d, card %d", trial, i)
			require.Equal(t, pool.N, fast.n)
			if want < 0 {
				break
			}
		}
	}
}

// atEveryDecision plays random games of deals 0 to games-1 (table sizes in turn, moves
// drawn from random) and calls check before every move.
func atEveryDecision(t *testing.T, random uint64, games int, check func(seed uint64, g *Game)) {
	r := engine.NewRand(random)
	for seed := uint64(0); seed < uint64(games); seed++ {
		g, err := New(seed, MinPlayers+int(seed)%(MaxPlayers-MinPlayers+1))
		require.NoError(t, err)
		for !g.Terminal() {
			check(seed, g)
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
		}
	}
}

// TestFillViewOverwritesEverything: a view reused across games of other sizes, seats
// and phases (as the search's play-outs reuse one) comes out as a fresh one.
func TestFillViewOverwritesEverything(t *testing.T) {
	var reused View
	atEveryDecision(t, 3, 40, func(seed uint64, g *Game) {
		for _, seat := range []int{g.ToMove(), int(seed) % g.Players(), -1} {
			g.FillView(&reused, seat)
			var fresh View
			g.FillView(&fresh, seat)
			fresh2 := *g.View(seat).(*View)
			require.Equal(t, fresh, reused)
			require.Equal(t, fresh2, reused)
		}
	})
}

// TestAttackSetIsAttackable: the options' set of attackable kinds says, for every kind
// and target at every decision of random games, what attackable says.
func TestAttackSetIsAttackable(t *testing.T) {
	checked := 0
	atEveryDecision(t, 5, 60, func(seed uint64, g *Game) {
		for target := 0; target < g.Players(); target++ {
			set := g.attackSet(target)
			for _, k := range attackKinds {
				require.Equal(t, g.attackable(k, target), set&attackBit[k] != 0, "seed %d, %s at seat %d", seed, k, target)
				checked++
			}
		}
	})
	require.Greater(t, checked, 1000)
}

// TestHandSizeCounts: the word-wise count of a hand is the sum of its kinds, for hands
// up to the whole deck in one kind or spread over all of them.
func TestHandSizeCounts(t *testing.T) {
	r := engine.NewRand(9)
	for trial := 0; trial < 5000; trial++ {
		var h [NumKinds]uint8
		want, room := 0, DeckSize
		for k := range h {
			if trial%3 == 0 && k != trial%int(NumKinds) {
				continue // one kind only
			}
			c := r.Intn(min(room, 12+trial%90) + 1)
			h[k], want, room = uint8(c), want+c, room-c
		}
		require.Equal(t, want, handSize(&h), "hand %v", h)
	}
}

// TestWholeStateReadsAsTheViews: Hand, Forts and TurnSeat read of the whole state what
// each seat's own view shows of it, at every decision of random games, and nothing for
// a seat not at the table.
func TestWholeStateReadsAsTheViews(t *testing.T) {
	held := 0
	atEveryDecision(t, 9, 20, func(_ uint64, g *Game) {
		for s := 0; s < g.Players(); s++ {
			v := g.View(s).(*View)
			require.Equal(t, v.Hand, g.Hand(s))
			require.Equal(t, v.Forts[s], g.Forts(s))
			require.Equal(t, v.TurnSeat, g.TurnSeat())
			held += v.HandSizes[s]
		}
		require.Zero(t, g.Hand(g.Players()))
		require.Equal(t, [NumForts]Kind{NoKind, NoKind, NoKind}, g.Forts(-1))
	})
	require.Positive(t, held)
}
