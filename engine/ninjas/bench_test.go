package ninjas

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/arena-games/arena/engine"
)

// BenchmarkRandomGames plays whole games with uniform random choices: one op is one game.
func BenchmarkRandomGames(b *testing.B) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			b.ReportAllocs()
			r := engine.NewRand(1)
			decisions := 0
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < b.N; i++ {
				g, _ := New(uint64(i), players)
				for !g.Terminal() {
					_ = g.Apply(r.Intn(len(g.Options())))
				}
				decisions += g.Decisions()
			}
			runtime.ReadMemStats(&after)
			s := b.Elapsed().Seconds()
			// New's three buffers included: the decisions themselves allocate nothing.
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(decisions), "allocs/decision")
			b.ReportMetric(float64(b.N)/s, "games/s")
			b.ReportMetric(float64(decisions)/s, "decisions/s")
			b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
		})
	}
}

// BenchmarkDecision measures one decision (Options and Apply) in the hot path: one op
// is one decision. A finished game restarts from a saved start into the same buffers,
// so what is allocated is allocated by the decisions themselves.
func BenchmarkDecision(b *testing.B) {
	for _, players := range []int{2, 4, 6} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			start, _ := New(1, players)
			g := start.Clone().(*Game)
			g.log = make([]engine.Event, 0, 1<<16)
			r := engine.NewRand(1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if g.Terminal() {
					opts, log := g.opts, g.log
					*g = *start
					g.rnd = engine.NewRand(uint64(i))
					g.opts = opts[:0]
					g.log = append(log[:0], start.log...)
					g.listOptions()
				}
				_ = g.Apply(r.Intn(len(g.Options())))
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}

// BenchmarkClone is the cost of a copy, for search bots.
func BenchmarkClone(b *testing.B) {
	g, _ := New(1, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = g.Clone()
	}
}
