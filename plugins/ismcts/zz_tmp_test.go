package ismcts

import (
	"os"
	"testing"

	"github.com/arena-games/arena/engine"
)

func BenchmarkTmpK(b *testing.B) {
	for _, n := range []int{3, 4, 5} {
		b.Run(string(rune('0'+n)), func(b *testing.B) {
			g := midGame(b, "kardinal", n, 30)
			seat := g.ToMove()
			view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
			cfg, err := ParseSettings(os.Getenv("TMPK"))
			if err != nil {
				b.Fatal(err)
			}
			s, _ := NewSearch("kardinal", nil, 1, cfg)
			for i := 0; i < 2000; i++ {
				if i%1000 == 0 {
					s.tree.reset()
				}
				s.iterate(view, events)
			}
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%1000 == 0 {
					s.tree.reset()
				}
				s.iterate(view, events)
			}
			b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "it/cpu-s")
		})
	}
}
