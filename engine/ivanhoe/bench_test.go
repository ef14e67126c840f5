package ivanhoe

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/arena-games/arena/engine"
)

// BenchmarkRandomGames plays whole seeded games with uniformly random choices, reusing
// one Game (Reset), and reports games and decisions per second and allocations per
// decision.
func BenchmarkRandomGames(b *testing.B) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			g, _ := New(1, players)
			r := engine.NewRand(99)
			decisions := 0
			var before, after runtime.MemStats
			b.ReportAllocs()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g.Reset(uint64(i))
				for !g.Terminal() {
					_ = g.Apply(r.Intn(len(g.Options())))
				}
				decisions += g.Decisions()
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(decisions)/sec, "decisions/s")
			b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(decisions), "allocs/decision")
		})
	}
}
