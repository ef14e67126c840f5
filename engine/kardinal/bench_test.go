package kardinal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
)

// BenchmarkRandomGame plays whole games with uniformly random decisions.
func BenchmarkRandomGame(b *testing.B) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			b.ReportAllocs()
			r := engine.NewRand(1)
			decisions := 0
			for i := 0; i < b.N; i++ {
				g, _ := New(uint64(i), players)
				for !g.Terminal() {
					_ = g.Apply(r.Intn(len(g.Options())))
				}
				decisions += g.Decisions()
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "games/s")
			b.ReportMetric(float64(decisions)/sec, "decisions/s")
		})
	}
}

// BenchmarkDecision measures one decision (Options, Apply) of random play, reusing one
// game's buffers between games so that only the hot path is counted: allocs/op is
// allocations per decision.
func BenchmarkDecision(b *testing.B) {
	b.ReportAllocs()
	r := engine.NewRand(1)
	g, _ := New(0, 4)
	seed := uint64(0)
	for i := 0; i < b.N; i++ {
		if g.Terminal() {
			seed++
			g.reset(DefaultBoard(), seed, 3+int(seed%3))
		}
		_ = g.Apply(r.Intn(len(g.Options())))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkClone measures the state copy search bots pay per simulation.
func BenchmarkClone(b *testing.B) {
	b.ReportAllocs()
	g, _ := New(1, 5)
	for i := 0; i < 40; i++ {
		_ = g.Apply(0)
	}
	for i := 0; i < b.N; i++ {
		_ = g.Clone()
	}
}

// BenchmarkLoadBoard is the cost of reading a board file: what starting a game with a
// board option adds when the options are not prepared once (engine.NewWith).
func BenchmarkLoadBoard(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadBoard(strings.NewReader(defaultBoardText)); err != nil {
			b.Fatal(err)
		}
	}
}
