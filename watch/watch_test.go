package watch_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/watch"
)

// played is a game of random players recorded in process.
func played(t testing.TB, game string, players int, seed uint64) *arena.Replay {
	t.Helper()
	bots := make([]string, players)
	seats := make([]engine.Policy, players)
	for s := range seats {
		bots[s] = fmt.Sprintf("random%d", s)
		seats[s] = random.New(seed*31 + uint64(s))
	}
	rep, err := watch.Record(game, seed, nil, bots, seats)
	require.NoError(t, err)
	return rep
}

// eachGame runs f on a recorded game of every game and player count.
func eachGame(t *testing.T, f func(t *testing.T, rep *arena.Replay)) {
	for _, name := range engine.Names() {
		spec, err := engine.Lookup(name)
		require.NoError(t, err)
		for n := spec.MinPlayers; n <= spec.MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) { f(t, played(t, name, n, uint64(n))) })
		}
	}
}

// withoutHand is a view with its seat and hand zeroed: the part every seat shares.
func withoutHand(v engine.View) any {
	c := reflect.New(reflect.TypeOf(v).Elem())
	c.Elem().Set(reflect.ValueOf(v).Elem())
	for _, f := range []string{"Seat", "Hand"} {
		c.Elem().FieldByName(f).SetZero()
	}
	return c.Interface()
}

func hand(v engine.View) any { return reflect.ValueOf(v).Elem().FieldByName("Hand").Interface() }

// A seat's point of view holds at every step the engine's own view of that seat (its
// hand and nothing else hidden), its options and choice at its own decisions only, and
// the public point of view holds no hand at all and no event a seat did not see.
func TestEveryPointOfViewShowsOnlyWhatItKnew(t *testing.T) {
	eachGame(t, func(t *testing.T, rep *arena.Replay) {
		n := rep.Header.Players
		views := make([]*watch.Game, n)
		for s := range n {
			var err error
			views[s], err = watch.Steps(rep, s)
			require.NoError(t, err)
		}
		public, err := watch.Steps(rep, watch.Public)
		require.NoError(t, err)
		require.Len(t, public.Steps, len(rep.Decisions)+1)
		i := 0
		check := func(g engine.Game) {
			pub := public.Steps[i]
			assert.True(t, reflect.ValueOf(hand(pub.View)).IsZero(), "step %d: the public view holds a hand", i)
			for s := range n {
				st := views[s].Steps[i]
				want := g.View(s)
				require.Equal(t, want, st.View, "step %d seat %d: not the engine's view", i, s)
				assert.Equal(t, withoutHand(want), withoutHand(pub.View), "step %d: the public view differs from seat %d's beyond its hand", i, s)
				for _, line := range pub.Happened {
					assert.Contains(t, st.Happened, line, "step %d: the public saw what seat %d did not", i, s)
				}
				own := !g.Terminal() && g.ToMove() == s
				require.Equal(t, own, st.Asked != nil, "step %d seat %d: options shown exactly at its own decisions", i, s)
				if own {
					assert.Len(t, st.Asked.Options, len(g.Options()))
					assert.Equal(t, rep.Decisions[i].Choice, st.Asked.Chosen)
				}
				if i > 0 {
					d := rep.Decisions[i-1]
					assert.Equal(t, d.Seat == s, st.Decided.Text != "", "step %d seat %d: a choice's words only for its own", i, s)
				}
			}
			assert.Nil(t, pub.Asked, "the public is asked nothing")
			i++
		}
		g, err := engine.NewWith(rep.Header.Game, rep.Header.Seed, n, rep.Header.Options)
		require.NoError(t, err)
		check(g)
		_, err = arena.Resimulate(rep, func(g engine.Game, _ []engine.Event, _ arena.Record) { check(g) })
		require.NoError(t, err)
		assert.Equal(t, rep.Result.Score, public.Result.Score)
	})
}

// The private events of a seat (a card drawn, stolen or shown to it) reach that seat's
// point of view only: somewhere in every game a seat sees a line the public does not.
func TestPrivateEventsReachTheirSeatOnly(t *testing.T) {
	eachGame(t, func(t *testing.T, rep *arena.Replay) {
		public, err := watch.Steps(rep, watch.Public)
		require.NoError(t, err)
		private := 0
		for s := range rep.Header.Players {
			v, err := watch.Steps(rep, s)
			require.NoError(t, err)
			for i, st := range v.Steps {
				for _, line := range st.Happened {
					if !slices.Contains(public.Steps[i].Happened, line) {
						private++
					}
				}
			}
		}
		assert.Positive(t, private, "no seat saw anything private: the test shows nothing")
	})
}

func TestAPointOfViewOutsideTheGameIsAnError(t *testing.T) {
	rep := played(t, "ninjas", 2, 1)
	for _, seat := range []int{-2, 2} {
		_, err := watch.Steps(rep, seat)
		assert.ErrorContains(t, err, "seat 0 to 1 or the public one")
	}
}

// A forfeit recorded at a decision is told at the step of that decision, from every
// point of view (a forfeit is public), with its ending and the arena's account.
func TestForfeitsAreToldAtTheirDecision(t *testing.T) {
	rep := played(t, "ninjas", 3, 2)
	timeout := arena.Timeout
	rep.Endings = append(rep.Endings, arena.Record{Type: "ending", N: 4, Seat: 1, Ending: &timeout, Detail: "no answer before the deadline"})
	for seat := watch.Public; seat < 3; seat++ {
		g, err := watch.Steps(rep, seat)
		require.NoError(t, err)
		for i, st := range g.Steps {
			if i == 4 {
				assert.Equal(t, []watch.Forfeit{{Seat: 1, Ending: "timeout", Detail: "no answer before the deadline"}}, st.Forfeits)
			} else {
				assert.Empty(t, st.Forfeits, "step %d", i)
			}
		}
	}
}
