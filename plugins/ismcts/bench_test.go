package ismcts

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
)

// midGame plays a seeded game for decisions decisions by the heuristic, then on to a
// decision with more than one option, and returns it.
func midGame(tb testing.TB, game string, players, decisions int) engine.Game {
	g, err := engine.New(game, 42, players)
	if err != nil {
		tb.Fatal(err)
	}
	h := heuristic.New()
	// Then on to a decision with a choice: one with a single option is not searched.
	for i := 0; (i < decisions || len(g.Options()) < 2) && !g.Terminal(); i++ {
		s := g.ToMove()
		if err := g.Apply(h.Choose(g.View(s), nil, g.Options())); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

var benchTables = []struct {
	game    string
	players []int
}{{"ivanhoe", []int{2, 3, 4, 5}}, {"kardinal", []int{3, 4, 5}}, {"ninjas", []int{2, 3, 4, 5, 6}}}

// BenchmarkIterations measures search iterations per second on one core, from a state
// 30 decisions into a game, the tree restarted every 1,000 iterations as a decision
// would (so its nodes are reused: the steady state), with the bot's default settings
// (epsilon-greedy heuristic play-outs; Kardinal: 16 decisions of its table's play-out and
// the soft projection) and with uniformly random play-outs (Kardinal: random ones, cut
// off and scored alike; and each of its own two, placer and greedy). Run it with
// -cpu 1: iterations/cpu-s is then the figure per core. ISMCTS_BENCH="SETTINGS ..."
// adds settings to measure.
func BenchmarkIterations(b *testing.B) {
	for _, tc := range benchTables {
		for _, n := range tc.players {
			settings := []string{"default", "rollout=random"}
			if tc.game == "kardinal" { // both of its play-outs, whichever the default
				settings = append(settings, "rollout=placer", "rollout=greedy")
			}
			for _, settings := range append(settings, strings.Fields(os.Getenv("ISMCTS_BENCH"))...) {
				b.Run(fmt.Sprintf("%s/%dp/%s", tc.game, n, settings), func(b *testing.B) {
					g := midGame(b, tc.game, n, 30)
					seat := g.ToMove()
					view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
					cfg, _ := ParseSettings(strings.TrimPrefix(settings, "default"))
					s, err := NewSearch(tc.game, nil, 1, cfg)
					if err != nil {
						b.Fatal(err)
					}
					for i := 0; i < 1000; i++ { // warm up: grow every buffer
						if i%1000 == 0 {
							s.tree.reset()
						}
						if err := s.iterate(view, events); err != nil {
							b.Fatal(err)
						}
					}
					timeIterations(b, s, view, events)
				})
			}
		}
	}
}

// timeIterations runs b.N iterations of s on the decision of view, the tree restarted
// every 1,000, and reports them per second of wall and of CPU time.
func timeIterations(b *testing.B, s *Search, view engine.View, events []engine.Event) {
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%1000 == 0 {
			s.tree.reset()
		}
		if err := s.iterate(view, events); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "iterations/cpu-s")
}

// cpuTime is the CPU time this process has used. Iterations per CPU second is the
// figure to quote on a shared machine: wall time counts the other processes' turns.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
