package ismcts

import (
	"fmt"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// versus plays deals of game in-process, ismcts with cfg in one seat of every rotation
// and the heuristic in the others, and returns ismcts's mean match score.
func versus(t testing.TB, game string, players, deals int, cfg Config) float64 {
	total, n := 0.0, 0
	reward := make([]float64, players)
	for d := 0; d < deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := engine.New(game, uint64(1000+d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = heuristic.New()
			}
			p, err := New(game, uint64(d*10+seat), cfg)
			require.NoError(t, err)
			seats[seat] = p
			require.NoError(t, engine.PlayOut(g, seats))
			require.Zero(t, p.Errors, "the search failed on some decisions")
			MatchScore(g, reward)
			total += reward[seat]
			n++
		}
	}
	return total / float64(n)
}

// wire passes what a policy sees through the protocol's encoding, as a bot process gets
// it (events lose their audience, views are decoded into fresh values).
type wire struct {
	codec protocol.Codec
	seat  int
	p     engine.Policy
}

func (w wire) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	msg, err := w.codec.EncodeView(view)
	if err != nil {
		panic(err)
	}
	v, err := w.codec.DecodeView(msg)
	if err != nil {
		panic(err)
	}
	evs, err := protocol.DecodeEvents(nil, protocol.AppendEvents(nil, events), w.seat)
	if err != nil {
		panic(err)
	}
	return w.p.Choose(v, evs, options)
}

// TestPlaysEveryGameThroughTheWire: in every game and player count, a whole game with
// ismcts in one seat and views and events as a bot process decodes them: every decision
// is searched (the sampler accepts every view and event history) and legal.
func TestPlaysEveryGameThroughTheWire(t *testing.T) {
	for _, tc := range benchTables {
		for _, n := range tc.players {
			t.Run(fmt.Sprintf("%s/%dp", tc.game, n), func(t *testing.T) {
				codec, err := protocol.CodecFor(tc.game)
				require.NoError(t, err)
				g, err := engine.New(tc.game, uint64(n), n)
				require.NoError(t, err)
				seats := make([]engine.Policy, n)
				for s := range seats {
					seats[s] = heuristic.New()
				}
				seat := n - 1
				p, err := New(tc.game, 7, Config{Iterations: 20, Rollout: Uniform})
				require.NoError(t, err)
				searched := 0
				seats[seat] = engine.PolicyFunc(func(v engine.View, e []engine.Event, o []engine.Option) int {
					i := wire{codec, seat, p}.Choose(v, e, o)
					if len(o) > 1 {
						require.Equal(t, 20, p.Iterations(), "every decision with a choice is searched to its budget")
						searched++
					}
					return i
				})
				require.NoError(t, engine.PlayOut(g, seats))
				require.Zero(t, p.Errors, "the search failed on some decisions")
				require.Positive(t, searched)
			})
		}
	}
}

func TestSettings(t *testing.T) {
	for in, want := range map[string]Config{
		"":                           {},
		"iterations=2000":            {Iterations: 2000},
		"time=100ms":                 {Time: 100 * time.Millisecond},
		"time=1s,iterations=5,c=1.5": {Time: time.Second, Iterations: 5, C: 1.5},
	} {
		got, err := ParseSettings(in)
		require.NoError(t, err, in)
		got.Rollout, got.Policy = nil, nil
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"iterations=0", "iterations=x", "time=-1s", "time=soon", "c=0", "epsilon=2",
		"rollout=magic", "speed=9", "time"} {
		_, err := ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}

// TestDeadlineIsKept: with an unbounded budget the search still answers before the
// deadline less its margin. The deadline is 2 s away and the margin 400 ms, far more
// than one iteration (well under a millisecond) and a scheduling delay even at a load
// of 16 on two cores.
func TestDeadlineIsKept(t *testing.T) {
	g := midGame(t, "ninjas", 3, 10)
	p, err := New("ninjas", 1, Config{Time: time.Hour})
	require.NoError(t, err)
	seat := g.ToMove()
	deadline := time.Now().Add(2 * time.Second)
	p.ChooseBy(deadline, 0, g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options())
	assert.True(t, time.Now().Before(deadline), "answered after the deadline")
	assert.Positive(t, p.Iterations())
}

// TestBankIsSpentSparingly: a decision spends at most a twentieth of the bank, so with
// 1 s of bank and a 1 h deadline it answers long before 1 s.
func TestBankIsSpentSparingly(t *testing.T) {
	g := midGame(t, "ninjas", 3, 10)
	p, err := New("ninjas", 1, Config{Time: time.Hour})
	require.NoError(t, err)
	seat := g.ToMove()
	start := time.Now()
	p.ChooseBy(start.Add(time.Hour), time.Second, g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options())
	assert.Less(t, time.Since(start), time.Second, "a decision spent the whole bank")
}

// TestMatchScoreIsTheArenasScore: at the end of random games of every game, the
// rewards are the share of opponents each seat's Result place beats, ties half.
func TestMatchScoreIsTheArenasScore(t *testing.T) {
	for _, tc := range benchTables {
		for _, n := range tc.players {
			for seed := uint64(0); seed < 20; seed++ {
				g, err := engine.New(tc.game, seed, n)
				require.NoError(t, err)
				r := engine.NewRand(seed)
				for !g.Terminal() {
					require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
				}
				got := make([]float64, n)
				MatchScore(g, got)
				place := g.Result().Place
				for s := range place {
					want := 0.0
					for o := range place {
						if o != s && place[o] > place[s] {
							want++
						} else if o != s && place[o] == place[s] {
							want += 0.5
						}
					}
					assert.InDelta(t, want/float64(n-1), got[s], 1e-9, "%s %dp seed %d seat %d", tc.game, n, seed, s)
				}
			}
		}
	}
}
