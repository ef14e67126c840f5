package rating

import (
	"testing"
)

// BenchmarkOfficialFit is the ladder's worst case the issue sets: 100 bots and a
// million recorded four-player games (250,000 blocks of four rotations), aggregated
// from scratch, fitted, and bootstrapped with DefaultResamples resamples.
func BenchmarkOfficialFit(b *testing.B) {
	const bots, games = 100, 1_000_000
	recorded := randomLadder(bots, games, 4, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := NewResults(bots)
		for _, g := range recorded {
			if err := r.Add(g.block, g.seats, g.places); err != nil {
				b.Fatal(err)
			}
		}
		got, err := r.Fit(Options{Prior: DefaultPrior, Anchor: 0, Resamples: DefaultResamples, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if w := got[50].High - got[50].Low; !(w > 0 && w < 50) {
			b.Fatalf("interval width %v", w)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/fit")
}
