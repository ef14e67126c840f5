package ninjas

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const randomGamesPerCount = 500

// TestRandomGamesKeepEveryInvariant plays seeded random games for every player count and
// checks the invariants after every decision.
func TestRandomGamesKeepEveryInvariant(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			wins, longest := 0, 0
			for seed := uint64(0); seed < randomGamesPerCount; seed++ {
				g, err := New(seed, players)
				require.NoError(t, err)
				require.NoError(t, checkInvariants(g))
				r := engine.NewRand(seed ^ 0x5eed)
				describe := seed < 10
				for !g.Terminal() {
					if describe {
						for _, o := range g.Options() {
							require.NotContains(t, g.Describe(o), "unknown")
						}
					}
					if g.decisions%50 == 7 { // an illegal index changes nothing
						h := g.Hash()
						err := g.Apply(len(g.Options()))
						require.True(t, errors.Is(err, engine.ErrIllegal))
						require.Equal(t, h, g.Hash())
					}
					require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
					if err := checkInvariants(g); err != nil {
						t.Fatalf("seed %d, decision %d: %v\n%s", seed, g.decisions, err, g.View(g.ToMove()))
					}
				}
				require.NoError(t, checkGemsEndTurn(g.log), "seed %d", seed)
				require.LessOrEqual(t, g.turns, MaxTurns)
				require.LessOrEqual(t, g.decisions, MaxDecisions)
				require.Empty(t, g.Options())
				require.Equal(t, engine.NoSeat, g.ToMove())
				require.True(t, errors.Is(g.Apply(0), engine.ErrIllegal))
				for _, e := range g.log {
					if EventKind(e.Kind) == EvDrawCard {
						require.Equal(t, engine.Only(int(e.Seat)), e.Audience, "a drawn card is seen by the drawer only")
					} else {
						require.Equal(t, engine.Everyone, e.Audience, "event %d is public", e.Kind)
					}
					if describe {
						require.NotContains(t, g.DescribeEvent(e), "unknown")
					}
				}
				if g.winner != engine.NoSeat {
					wins++
				}
				longest = max(longest, g.turns)
			}
			t.Logf("%d games, %d won outright, longest %d turns", randomGamesPerCount, wins, longest)
		})
	}
}

func TestSameSeedAndDecisionsGiveTheSameGame(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for seed := uint64(0); seed < 20; seed++ {
			a, _ := New(seed, players)
			b, _ := New(seed, players)
			r := engine.NewRand(seed)
			for !a.Terminal() {
				require.Equal(t, a.Hash(), b.Hash())
				for s := 0; s < players; s++ {
					require.Equal(t, a.View(s), b.View(s))
				}
				i := r.Intn(len(a.Options()))
				require.NoError(t, a.Apply(i))
				require.NoError(t, b.Apply(i))
			}
			require.Equal(t, a.Hash(), b.Hash())
			require.Equal(t, a.Result(), b.Result())
			require.Equal(t, a.Log(), b.Log())
		}
	}
}

func TestCloneContinuesIndependently(t *testing.T) {
	g, _ := New(77, 6)
	r := engine.NewRand(1)
	for i := 0; i < 30 && !g.Terminal(); i++ {
		require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
	}
	require.False(t, g.Terminal())
	c := g.Clone().(*Game)
	require.Equal(t, g.Hash(), c.Hash())
	h, opts, logLen := g.Hash(), append([]engine.Option(nil), g.Options()...), len(g.Log())
	// Playing the clone to the end leaves the original untouched.
	for !c.Terminal() {
		require.NoError(t, c.Apply(len(c.Options())-1))
	}
	assert.Equal(t, h, g.Hash())
	assert.Equal(t, opts, g.Options())
	assert.Len(t, g.Log(), logLen)
	// And the original continues as a fresh clone does.
	d := g.Clone().(*Game)
	for !g.Terminal() {
		i := r.Intn(len(g.Options()))
		require.NoError(t, g.Apply(i))
		require.NoError(t, d.Apply(i))
		require.Equal(t, g.Hash(), d.Hash())
	}
	assert.Equal(t, g.Log(), d.Log())
}

func TestHashCoversHiddenStateAndTheRandomSource(t *testing.T) {
	g, _ := New(5, 3)
	h := g.Hash()
	c := g.Clone().(*Game)
	c.pile[0], c.pile[1] = c.pile[1], c.pile[0]
	if c.pile[0] != c.pile[1] {
		assert.NotEqual(t, h, c.Hash(), "draw pile order")
	}
	c = g.Clone().(*Game)
	c.rnd.Uint64()
	assert.NotEqual(t, h, c.Hash(), "random source")
	c = g.Clone().(*Game)
	for k := Kind(0); k < NumKinds; k++ {
		if c.hands[1][k] > 0 && k != Jester {
			c.hands[1][k]--
			c.hands[1][Jester]++
			break
		}
	}
	assert.NotEqual(t, h, c.Hash(), "a hidden hand")
}

// resample returns a copy of g that seat cannot tell from g: the cards of the other
// hands (and, with pile, of the draw pile) dealt again at random, hand sizes kept.
func resample(g *Game, seat int, r *engine.Rand, pile bool) *Game {
	c := g.Clone().(*Game)
	var hidden []Kind
	for s := 0; s < c.players; s++ {
		if s == seat {
			continue
		}
		for k := Kind(0); k < NumKinds; k++ {
			for ; c.hands[s][k] > 0; c.hands[s][k]-- {
				hidden = append(hidden, k)
			}
		}
	}
	sizes := [MaxPlayers]int{}
	for s := 0; s < g.players; s++ {
		sizes[s] = handSize(&g.hands[s])
	}
	if pile {
		hidden = append(hidden, c.pile[:c.pileN]...)
	}
	shuffleKinds(r, hidden)
	for s := 0; s < c.players; s++ {
		if s == seat {
			continue
		}
		for i := 0; i < sizes[s]; i++ {
			c.hands[s][hidden[0]]++
			hidden = hidden[1:]
		}
	}
	if pile {
		copy(c.pile[:], hidden)
	}
	c.listOptions()
	return c
}

// TestNoLeaks: a seat's view, options and visible events are the same in every state
// that differs from the real one only in what the seat cannot know, for as long as the
// same public choices stay legal in both.
func TestNoLeaks(t *testing.T) {
	checked := 0
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for seed := uint64(0); seed < 40; seed++ {
			g, _ := New(seed, players)
			r := engine.NewRand(seed*31 + 7)
			for !g.Terminal() {
				if r.Intn(6) == 0 {
					seat := g.ToMove()
					if r.Intn(2) == 0 {
						seat = r.Intn(players)
					}
					checkIndistinguishable(t, g.Clone().(*Game), resample(g, seat, &r, r.Intn(2) == 0), seat, &r)
					checked++
				}
				require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
			}
		}
	}
	t.Logf("%d resampled positions", checked)
	require.Greater(t, checked, 500)
}

func checkIndistinguishable(t *testing.T, a, b *Game, seat int, r *engine.Rand) {
	t.Helper()
	require.NoError(t, checkInvariants(b))
	from := len(a.log)
	for step := 0; step < 60 && !a.Terminal(); step++ {
		require.Equal(t, a.View(seat), b.View(seat), "step %d", step)
		require.Equal(t, engine.EventsFor(nil, a.log, seat, from), engine.EventsFor(nil, b.log, seat, from), "step %d", step)
		if a.ToMove() == seat {
			require.Equal(t, a.Options(), b.Options(), "step %d", step)
		}
		o := a.Options()[r.Intn(len(a.Options()))]
		j, ok := engine.Find(b, o)
		if !ok {
			return // the hidden cards differ in a way the next choice shows
		}
		require.NoError(t, a.Apply(indexOf(a, o)))
		n := len(b.log)
		require.NoError(t, b.Apply(j))
		for _, e := range b.log[n:] {
			if EventKind(e.Kind) == EvDrawCard && int(e.Seat) == seat {
				return // the seat drew from a resampled pile: it may now tell them apart
			}
		}
	}
}

func indexOf(g *Game, o engine.Option) int {
	i, _ := engine.Find(g, o)
	return i
}

func TestViewStringReadsWell(t *testing.T) {
	g := table{players: 3, hands: [][]Kind{hand(Knight, Peasant, Peasant), nil, nil},
		forts: [][]Kind{nil, {Castle}}, jforts: [][]Fort{nil, nil, {FortArcher}}}.build(t)
	s := g.View(0).String()
	for _, want := range []string{"hand: 2×Peasant, Knight", "seat 1: 5 gems, 0 cards, fortified by Castle",
		"seat 2: 5 gems, 0 cards, fortified by a Jester as Archer", "seat 0 to move"} {
		assert.True(t, strings.Contains(s, want), "%q in\n%s", want, s)
	}
	assert.Equal(t, "attack seat 2 with 2 Peasants", g.Describe(revolt(2, 2)))
}
