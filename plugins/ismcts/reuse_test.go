package ismcts

import (
	"fmt"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNinjasEventsNameEveryDecision: in random games of every player count, each
// decision leaves exactly one event that ninjasOption reads, and it names the seat that
// decided and the option it applied: the reused tree follows the other seats' moves
// by these.
func TestNinjasEventsNameEveryDecision(t *testing.T) {
	for players := 2; players <= 6; players++ {
		for seed := uint64(1); seed <= 3; seed++ {
			g, err := engine.New("ninjas", seed, players)
			require.NoError(t, err)
			r := random.New(seed)
			for !g.Terminal() {
				seat, opts, from := g.ToMove(), g.Options(), len(g.Log())
				i := r.Choose(g.View(seat), nil, opts)
				want := opts[i]
				require.NoError(t, g.Apply(i))
				var got []move
				for _, e := range g.Log()[from:] {
					if o, ok := ninjasOption(e); ok {
						got = append(got, move{seat: e.Seat, opt: o})
					}
				}
				require.Equal(t, []move{{seat: int8(seat), opt: want}}, got, "%dp seed %d", players, seed)
			}
		}
	}
}

// TestRerootKeepsTheSubtree: the chosen node becomes the root with its visits, its
// children keep their order and statistics, their own children come along, and the
// rest of the tree is dropped.
func TestRerootKeepsTheSubtree(t *testing.T) {
	var tr tree
	tr.reset()
	o := func(a int16) engine.Option { return engine.Option{Kind: 1, A: a} }
	set := func(i int32, visits int32, reward float64) {
		tr.nodes[i].visits, tr.nodes[i].avail, tr.nodes[i].reward = visits, visits+1, reward
	}
	other := tr.add(0, o(1), 0)
	kept := tr.add(0, o(2), 0)
	a := tr.add(kept, o(3), 1)
	b := tr.add(kept, o(4), 1)
	deep := tr.add(b, o(5), 0)
	tr.add(other, o(6), 1)
	set(kept, 10, 6)
	set(a, 3, 1)
	set(b, 7, 5)
	set(deep, 2, 2)

	tr.reroot(kept)
	require.Len(t, tr.nodes, 4, "the root and the three nodes below it")
	assert.Equal(t, int32(10), tr.nodes[0].visits)
	assert.Equal(t, int8(-1), tr.nodes[0].mover)
	var got []node
	for ch := tr.nodes[0].child; ch != 0; ch = tr.nodes[ch].next {
		got = append(got, tr.nodes[ch])
	}
	require.Len(t, got, 2)
	assert.Equal(t, []engine.Option{o(4), o(3)}, []engine.Option{got[0].opt, got[1].opt}, "siblings in their order")
	assert.Equal(t, []int32{7, 3}, []int32{got[0].visits, got[1].visits})
	assert.Equal(t, []int32{8, 4}, []int32{got[0].avail, got[1].avail})
	assert.Equal(t, []float64{5, 1}, []float64{got[0].reward, got[1].reward})
	g := tr.nodes[got[0].child]
	assert.Equal(t, o(5), g.opt)
	assert.Equal(t, int32(2), g.visits)
	assert.Zero(t, g.child)
	assert.Zero(t, g.next)
	assert.Zero(t, got[1].child)
	assert.Equal(t, int32(3), tr.follow([]move{{seat: 1, opt: o(4)}, {seat: 0, opt: o(5)}}))
	assert.Zero(t, tr.follow([]move{{seat: 0, opt: o(4)}}), "the same option of another seat is another node")
}

// TestReuseCarriesTheSearchOver plays whole games with a reusing search in one seat
// and checks, at every searched decision, that the tree starts with exactly the visits
// the last tree had at the node of the moves made since (read from the game itself,
// not from the events): in Ninjas across every seat's moves, in Kardinal only across
// the seat's own moves in a row. Without reuse every tree starts empty.
func TestReuseCarriesTheSearchOver(t *testing.T) {
	const iterations = 200
	for _, tc := range []struct {
		game    string
		players int
		others  bool // the tree follows the other seats' moves too
	}{{"ninjas", 2, true}, {"ninjas", 3, true}, {"kardinal", 3, false}} {
		for _, setting := range []string{"yes", "no"} {
			t.Run(fmt.Sprintf("%s/%dp/reuse=%s", tc.game, tc.players, setting), func(t *testing.T) {
				cfg, err := ParseSettings(fmt.Sprintf("iterations=%d,reuse=%s", iterations, setting))
				require.NoError(t, err)
				s, err := NewSearch(tc.game, nil, 7, cfg)
				require.NoError(t, err)
				g, err := engine.New(tc.game, 11, tc.players)
				require.NoError(t, err)
				h, carried, searched := heuristic.New(), 0, 0
				var since []move // every move since the search's last tree
				for !g.Terminal() {
					seat, opts := g.ToMove(), g.Options()
					i := h.Choose(g.View(seat), nil, opts)
					if seat == 0 {
						want := int32(0)
						if setting == "yes" && searched > 0 && (tc.others || allBy(since, 0)) {
							if n := s.tree.follow(since); n > 0 {
								want = s.tree.nodes[n].visits
							}
						}
						i, err = s.Choose(g.View(0), engine.EventsFor(nil, g.Log(), 0, 0), opts, time.Time{})
						require.NoError(t, err)
						if len(opts) > 1 {
							require.Equal(t, want+iterations, s.tree.nodes[0].visits, "decision %d", searched)
							if want > 0 {
								carried++
							}
							searched++
							since = since[:0]
						}
					}
					since = append(since, move{seat: int8(seat), opt: opts[i]})
					require.NoError(t, g.Apply(i))
				}
				t.Logf("%d of %d searched decisions started from a kept subtree", carried, searched)
				if setting == "yes" {
					assert.Greater(t, carried, searched/4, "of %d searched decisions", searched)
				} else {
					assert.Zero(t, carried)
				}
			})
		}
	}
}

func allBy(moves []move, seat int8) bool {
	for _, m := range moves {
		if m.seat != seat {
			return false
		}
	}
	return true
}
