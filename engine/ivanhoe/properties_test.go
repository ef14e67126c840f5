package ivanhoe

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSameSeedAndDecisionsGiveTheSameGame(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		a, _ := New(77, players)
		b, _ := New(77, players)
		r := engine.NewRand(5)
		for !a.Terminal() {
			require.Equal(t, a.Hash(), b.Hash())
			for s := 0; s < players; s++ {
				require.Equal(t, a.ViewOf(s), b.ViewOf(s))
			}
			i := r.Intn(len(a.Options()))
			require.NoError(t, a.Apply(i))
			require.NoError(t, b.Apply(i))
		}
		assert.True(t, b.Terminal())
		assert.Equal(t, a.Log(), b.Log())
		c, _ := New(78, players)
		assert.NotEqual(t, a.Hash(), c.Hash(), "another seed, another deal")
	}
}

func TestCloneContinuesExactlyAndIndependently(t *testing.T) {
	g := playTo(t, 11, 4, 60)
	c := g.Clone().(*Game)
	require.Equal(t, g.Hash(), c.Hash())
	r1, r2 := engine.NewRand(3), engine.NewRand(3)
	for !g.Terminal() {
		require.NoError(t, g.Apply(r1.Intn(len(g.Options()))))
		require.NoError(t, c.Apply(r2.Intn(len(c.Options()))))
		require.Equal(t, g.Hash(), c.Hash())
	}
	d := playTo(t, 11, 4, 60)
	e := d.Clone()
	require.NoError(t, e.Apply(0))
	assert.Equal(t, playTo(t, 11, 4, 60).Hash(), d.Hash(), "playing the clone leaves the original alone")
	assert.Greater(t, len(e.Log()), len(d.Log()))
}

func TestIllegalChoicesAreRejectedAndChangeNothing(t *testing.T) {
	g := playTo(t, 3, 3, 25)
	h := g.Hash()
	for _, i := range []int{-1, len(g.Options()), 1 << 20} {
		err := g.Apply(i)
		require.ErrorIs(t, err, engine.ErrIllegal)
		assert.Contains(t, err.Error(), fmt.Sprint(i))
		assert.Equal(t, h, g.Hash())
	}
}

// playTo plays n random decisions of a seeded game.
func playTo(t *testing.T, seed uint64, players, n int) *Game {
	g, err := New(seed, players)
	require.NoError(t, err)
	r := engine.NewRand(seed)
	for i := 0; i < n && !g.Terminal(); i++ {
		require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
	}
	return g
}

// resample deals what seat cannot know anew: the cards of the other hands and of the
// draw pile are pooled, shuffled and dealt back in the same sizes, and the random source
// is replaced.
func resample(g *Game, seat int, seed uint64) *Game {
	c := g.Clone().(*Game)
	r := engine.NewRand(seed)
	var pool []Card
	for s := 0; s < c.players; s++ {
		if s == seat {
			continue
		}
		for k := Card(0); k < NumCards; k++ {
			for ; c.hands[s][k] > 0; c.hands[s][k]-- {
				pool = append(pool, k)
			}
		}
	}
	pool = append(pool, c.draw[:c.drawN]...)
	engine.Shuffle(&r, pool)
	for s := 0; s < c.players; s++ {
		if s == seat {
			continue
		}
		for i := 0; i < c.handSize[s]; i++ {
			c.hands[s][pool[0]]++
			pool = pool[1:]
		}
	}
	copy(c.draw[:c.drawN], pool)
	c.rnd = engine.NewRand(seed * 7)
	c.optsValid = false
	return c
}

// seenSince is what seat saw of the log from index from.
func seenSince(g *Game, seat, from int) []engine.Event {
	return engine.EventsFor(nil, g.Log(), seat, from)
}

// TestNoLeaks resamples, at random decisions of random games, everything the deciding
// seat cannot know. Its view and options must not change; and after its decision (with
// any Ivanhoe question declined), its next view and the events it sees must not change
// either, unless it drew or took a card itself.
func TestNoLeaks(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 150; seed++ {
		players := MinPlayers + int(seed)%(MaxPlayers-MinPlayers+1)
		g := playTo(t, seed, players, int(seed*7)%120)
		if g.Terminal() {
			continue
		}
		s := g.ToMove()
		w := resample(g, s, seed+1000)
		require.NotEqual(t, g.Hash(), w.Hash(), "the resample must change hidden state")
		require.Equal(t, g.ViewOf(s), w.ViewOf(s), "seed %d seat %d", seed, s)
		require.Equal(t, g.Options(), w.Options(), "seed %d", seed)
		i := int(seed) % len(g.Options())
		o := g.Options()[i]
		if OptionKind(o.Kind) == PlayAction && Card(o.A) == KnockDown {
			continue // the seat learns the card it takes
		}
		from, hand := len(g.log), g.handSize[s]
		require.NoError(t, g.Apply(i))
		require.NoError(t, w.Apply(i))
		declineReactions(t, g, s)
		declineReactions(t, w, s)
		if g.handSize[s] != hand-btoi(OptionKind(o.Kind) == PlayCard || OptionKind(o.Kind) == PlayAction) {
			continue // it drew or took a card
		}
		if g.ToMove() == s {
			require.Equal(t, g.ViewOf(s), w.ViewOf(s), "seed %d after %s", seed, g.Describe(o))
			checked++
		}
		require.Equal(t, seenSince(g, s, from), seenSince(w, s, from), "seed %d after %s", seed, g.Describe(o))
	}
	assert.Greater(t, checked, 30)
}

func declineReactions(t *testing.T, g *Game, seat int) {
	for g.phase == PhaseReaction && g.toMove != seat {
		i, ok := engine.Find(g, option(LetStand))
		require.True(t, ok)
		require.NoError(t, g.Apply(i))
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestKnockDownCardIsSeenByTakerAndVictimOnly(t *testing.T) {
	g := fixture(t, 4)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	deal(t, g, 2, Maiden)
	deal(t, g, 0, KnockDown)
	do(t, g, action(KnockDown, 2))
	for s := 0; s < 4; s++ {
		saw := false
		for _, e := range seenSince(g, s, 0) {
			if EventKind(e.Kind) == EvKnockDownCard && Card(e.A) == Maiden {
				saw = true
			}
		}
		assert.Equal(t, s == 0 || s == 2, saw, "seat %d", s)
	}
}

// FuzzIvanhoe drives games with arbitrary option indices, out-of-range ones included:
// no panic, illegal indices rejected, invariants kept.
func FuzzIvanhoe(f *testing.F) {
	f.Add(uint64(1), uint8(4), []byte{0, 1, 2, 3, 255, 7, 9})
	f.Add(uint64(99), uint8(2), []byte{200, 0, 0, 0, 1, 1, 1, 5})
	f.Add(uint64(7), uint8(5), []byte{3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, choices []byte) {
		g, err := New(seed, int(players))
		if players < MinPlayers || players > MaxPlayers {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		for _, b := range choices {
			if g.Terminal() {
				break
			}
			i := int(b) - 8 // some negative, some past the end
			n := len(g.Options())
			err := g.Apply(i)
			if i < 0 || i >= n {
				require.ErrorIs(t, err, engine.ErrIllegal)
			} else {
				require.NoError(t, err)
			}
			if err := checkInvariants(g); err != nil {
				t.Fatal(err)
			}
		}
	})
}
