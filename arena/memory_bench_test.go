package arena

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/arena-games/arena/engine/enginetest"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// BenchmarkRunMemory plays runs of N and 10N games and reports the heap in use as the
// last match ends (after a collection): flat memory means the runner keeps nothing per
// match. Run it with -benchtime 1x:
//
//	go test -run '^$' -bench RunMemory -benchtime 1x ./arena/
func BenchmarkRunMemory(b *testing.B) {
	for _, games := range []int{400, 4000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			var heap uint64
			for i := 0; i < b.N; i++ {
				cfg := Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Games: games, Seed: 1, Parallel: 2,
					Entrants: []Entrant{testEntrant(b, "a", "random"), testEntrant(b, "b", "random")},
					Sandbox:  testSandbox(b, sandbox.None)}
				cfg.OnMatch = func(_ *MatchResult, done, total int) {
					if done == total {
						runtime.GC()
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						heap = ms.HeapInuse
					}
				}
				if _, err := Run(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(heap)/(1<<20), "MiB-heap-in-use")
		})
	}
}
