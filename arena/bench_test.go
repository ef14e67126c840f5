package arena

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	_ "github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// BenchmarkIvanhoeMatch is the arena's throughput: two-player Ivanhoe between two
// random bot processes, no replay files, j matches at a time; b.N is the number of
// games (rounded up to whole deals). Starting the bots is included. The sandbox is the
// default (every layer the machine has); sandbox=none shows what the layers cost.
func BenchmarkIvanhoeMatch(b *testing.B) {
	for _, j := range []int{1, 2} {
		b.Run(fmt.Sprintf("j=%d", j), func(b *testing.B) { benchMatch(b, j, sandbox.Auto) })
	}
	b.Run("j=1/sandbox=none", func(b *testing.B) { benchMatch(b, 1, sandbox.None) })
}

func benchMatch(b *testing.B, j int, level sandbox.Level) {
	cfg := Config{Game: "ivanhoe", Launcher: protocol.Launcher{}, Games: b.N, Seed: 1, Parallel: j, Clock: DefaultClock,
		Entrants: []Entrant{testEntrant(b, "a", "random"), testEntrant(b, "b", "random")},
		Sandbox:  testSandbox(b, level)}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(b, err)
	elapsed := time.Since(start).Seconds()
	decisions := 0
	for _, bot := range rep.Bots {
		decisions += bot.Decisions // random bots answer every decision
	}
	b.ReportMetric(float64(rep.Games)/elapsed, "games/s")
	b.ReportMetric(float64(decisions)/elapsed, "decisions/s")
	b.ReportMetric(elapsed*1e6/float64(decisions), "us/decision")
}
