package arena

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	_ "github.com/arena-games/arena/engine/ivanhoe"
)

// BenchmarkIvanhoeMatch is the arena's throughput: two-player Ivanhoe between two
// random bot processes, no replay files, j matches at a time; b.N is the number of
// games (rounded up to whole deals). Starting the bots is included.
func BenchmarkIvanhoeMatch(b *testing.B) {
	for _, j := range []int{1, 2} {
		b.Run(fmt.Sprintf("j=%d", j), func(b *testing.B) { benchMatch(b, j) })
	}
}

func benchMatch(b *testing.B, j int) {
	cfg := Config{Game: "ivanhoe", Games: b.N, Seed: 1, Parallel: j, Clock: DefaultClock,
		Entrants: []Entrant{testEntrant(b, "a", "random"), testEntrant(b, "b", "random")}}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(b, err)
	elapsed := time.Since(start).Seconds()
	decisions := 0
	for _, m := range rep.Matches {
		decisions += m.Decisions
	}
	b.ReportMetric(float64(rep.Games)/elapsed, "games/s")
	b.ReportMetric(float64(decisions)/elapsed, "decisions/s")
	b.ReportMetric(elapsed*1e6/float64(decisions), "us/decision")
}
