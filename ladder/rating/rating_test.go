package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// game is one recorded game for the tests.
type game struct {
	block         string
	seats, places []int
}

// headToHead lists n two-player games of a against b of which a wins wins and loses
// the rest, each its own block.
func headToHead(tag string, a, b, n, wins int) []game {
	var out []game
	for i := range n {
		pl := []int{0, 1}
		if i >= wins {
			pl = []int{1, 0}
		}
		out = append(out, game{block: fmt.Sprintf("%s-%d", tag, i), seats: []int{a, b}, places: pl})
	}
	return out
}

func results(t testing.TB, players int, games []game) *Results {
	r := NewResults(players)
	for _, g := range games {
		require.NoError(t, r.Add(g.block, g.seats, g.places))
	}
	return r
}

// The published three-player example: A scores 75% against B, B 75% against C and A
// 90% against C; these are exactly consistent with A = B + 400 log10 3 = C + 400 log10 9.
func threePlayers() []game {
	const a, b, c = 0, 1, 2
	var g []game
	g = append(g, headToHead("ab", a, b, 100, 75)...)
	g = append(g, headToHead("bc", b, c, 40, 30)...)
	g = append(g, headToHead("ac", a, c, 60, 54)...)
	return g
}

func TestFitThreePlayerVector(t *testing.T) {
	for _, prior := range []float64{0, 1e-9} {
		t.Run(fmt.Sprintf("prior %v: A +190.85, B 0, C -190.85 with B anchored", prior), func(t *testing.T) {
			r := results(t, 3, threePlayers())
			got, err := r.Fit(Options{Prior: prior, Anchor: 1})
			require.NoError(t, err)
			assert.Equal(t, "190.85", fmt.Sprintf("%.2f", got[0].Elo))
			assert.Equal(t, "0.00", fmt.Sprintf("%.2f", got[1].Elo))
			assert.Equal(t, "-190.85", fmt.Sprintf("%.2f", got[2].Elo))
			assert.True(t, math.IsNaN(got[0].Low), "no resamples, no interval")
		})
	}
}

func TestFitIndependentOfOrder(t *testing.T) {
	games := randomLadder(12, 3000, 4, 7)
	opt := Options{Prior: DefaultPrior, Anchor: 0, Resamples: 30, Seed: 5}
	want, err := results(t, 12, games).Fit(opt)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		t.Run(fmt.Sprintf("shuffle %d gives identical ratings and intervals", round), func(t *testing.T) {
			rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
			got, err := results(t, 12, games).Fit(opt)
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

func TestFitPrior(t *testing.T) {
	// C never loses: the bare likelihood has no maximum.
	games := append(headToHead("ab", 0, 1, 50, 25), headToHead("ca", 2, 0, 20, 20)...)
	t.Run("without a prior an unbeaten player makes the fit fail", func(t *testing.T) {
		_, err := results(t, 3, games).Fit(Options{Anchor: 0})
		require.ErrorIs(t, err, ErrNotIdentifiable)
	})
	t.Run("with the default prior an unbeaten player is finite and on top", func(t *testing.T) {
		got, err := results(t, 3, games).Fit(Options{Prior: DefaultPrior, Anchor: 0, Resamples: 50})
		require.NoError(t, err)
		assert.False(t, math.IsInf(got[2].Elo, 0) || math.IsNaN(got[2].Elo))
		assert.Greater(t, got[2].Elo, 300.0)
		assert.Less(t, got[2].Elo, 2000.0)
		assert.InDelta(t, 0, got[1].Elo, 60, "an even record stays near the anchor")
	})
	t.Run("without a prior two groups that never met are not identifiable", func(t *testing.T) {
		split := append(headToHead("ab", 0, 1, 10, 5), headToHead("cd", 2, 3, 10, 5)...)
		_, err := results(t, 4, split).Fit(Options{Anchor: -1})
		require.ErrorIs(t, err, ErrNotIdentifiable)
	})
	t.Run("without an anchor the mean rating is 0", func(t *testing.T) {
		got, err := results(t, 3, threePlayers()).Fit(Options{Anchor: -1})
		require.NoError(t, err)
		assert.InDelta(t, 0, got[0].Elo+got[1].Elo+got[2].Elo, 1e-9)
		assert.InDelta(t, 190.85, got[0].Elo-got[1].Elo, 0.005)
	})
}

func TestFitBootstrapResamplesWholeBlocks(t *testing.T) {
	// Every block is one deal in both seatings and A wins exactly one of the two: the
	// blocks are identical, so resampling blocks can only give A 50%. Resampling single
	// games would give the interval a width.
	var games []game
	for d := range 200 {
		b := fmt.Sprintf("deal-%d", d)
		games = append(games, game{b, []int{0, 1}, []int{0, 1}}, game{b, []int{1, 0}, []int{0, 1}})
	}
	got, err := results(t, 2, games).Fit(Options{Anchor: 1, Resamples: 100})
	require.NoError(t, err)
	assert.InDelta(t, 0, got[0].Elo, 1e-9)
	assert.InDelta(t, 0, got[0].Low, 1e-9)
	assert.InDelta(t, 0, got[0].High, 1e-9)
}

// TestFitPerfectScoreHasAnInterval: a bot that won every game of every block gets an
// interval of real width at any sample size (the bootstrap alone gives a point, since
// every resample is the same sweep), which holds its estimate and whose lower end rises
// as the evidence grows.
func TestFitPerfectScoreHasAnInterval(t *testing.T) {
	prevLow := math.Inf(-1)
	for _, blocks := range []int{1, 5, 30, 200} {
		var games []game
		for d := range blocks {
			b := fmt.Sprintf("deal-%d", d)
			games = append(games, game{b, []int{0, 1}, []int{0, 1}}, game{b, []int{1, 0}, []int{1, 0}})
		}
		got, err := results(t, 2, games).Fit(Options{Prior: DefaultPrior, Anchor: 1, Resamples: 100, Seed: 1})
		require.NoError(t, err)
		r := got[0]
		t.Logf("%d blocks: %.0f [%.0f, %.0f]", blocks, r.Elo, r.Low, r.High)
		assert.Less(t, r.Low, r.Elo-20, "%d blocks: room below the estimate", blocks)
		assert.Greater(t, r.High, r.Elo+20, "%d blocks: room above the estimate", blocks)
		assert.Greater(t, r.Low, prevLow, "%d blocks: more sweeps, a higher lower end", blocks)
		prevLow = r.Low
		assert.Equal(t, 0.0, got[1].Low, "the anchor stays a point")
	}
}

func TestFitIntervals(t *testing.T) {
	small, err := results(t, 6, randomLadder(6, 400, 3, 11)).Fit(Options{Prior: DefaultPrior, Anchor: 0, Resamples: 100, Seed: 1})
	require.NoError(t, err)
	large, err := results(t, 6, randomLadder(6, 6400, 3, 11)).Fit(Options{Prior: DefaultPrior, Anchor: 0, Resamples: 100, Seed: 1})
	require.NoError(t, err)
	for i := 1; i < 6; i++ {
		t.Run(fmt.Sprintf("player %d: the interval holds the estimate and narrows with 16x the games", i), func(t *testing.T) {
			for _, r := range []Rating{small[i], large[i]} {
				assert.LessOrEqual(t, r.Low, r.Elo)
				assert.GreaterOrEqual(t, r.High, r.Elo)
			}
			ws, wl := small[i].High-small[i].Low, large[i].High-large[i].Low
			assert.Less(t, wl, ws/2.5, "widths %v and %v", ws, wl)
			// Player i's true strength is 60 i Elo above player 0 (see randomLadder).
			assert.InDelta(t, 60*float64(i), large[i].Elo, 3*(wl/2)+5)
		})
	}
	t.Run("the anchor's own interval is a point", func(t *testing.T) {
		assert.Equal(t, 0.0, large[0].Low)
		assert.Equal(t, 0.0, large[0].High)
	})
}

func TestResultsRejectBadGames(t *testing.T) {
	cases := []struct {
		name          string
		seats, places []int
	}{
		{"one seat", []int{0}, []int{0}},
		{"places and seats differ in length", []int{0, 1}, []int{0}},
		{"unknown player", []int{0, 5}, []int{0, 1}},
		{"negative player", []int{-1, 0}, []int{0, 1}},
		{"place out of range", []int{0, 1}, []int{0, 2}},
		{"one player in two seats", []int{0, 0}, []int{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewResults(3)
			require.Error(t, r.Add("b", c.seats, c.places))
			assert.Equal(t, 0, r.Games())
			assert.Error(t, NewLive(3, DefaultK).Update(c.seats, c.places))
		})
	}
	t.Run("bad anchor", func(t *testing.T) {
		_, err := NewResults(3).Fit(Options{Anchor: 3})
		require.Error(t, err)
	})
}

func TestLive(t *testing.T) {
	t.Run("two players at equal ratings: the winner gains K/2, the loser loses it", func(t *testing.T) {
		l := NewLive(2, 32)
		require.NoError(t, l.Update([]int{0, 1}, []int{0, 1}))
		assert.InDelta(t, 16, l.Elo[0], 1e-12)
		assert.InDelta(t, -16, l.Elo[1], 1e-12)
	})
	t.Run("four players at equal ratings: K is split over the three pairs", func(t *testing.T) {
		l := NewLive(4, 30)
		require.NoError(t, l.Update([]int{3, 2, 1, 0}, []int{0, 1, 2, 3}))
		assert.InDelta(t, 15, l.Elo[3], 1e-12)  // three wins of 30/3 * 1/2
		assert.InDelta(t, 5, l.Elo[2], 1e-12)   // two wins, one loss
		assert.InDelta(t, -5, l.Elo[1], 1e-12)  // one win, two losses
		assert.InDelta(t, -15, l.Elo[0], 1e-12) // three losses
		assert.Equal(t, []int{1, 1, 1, 1}, l.Games)
	})
	t.Run("a shared place between equals changes nothing", func(t *testing.T) {
		l := NewLive(3, 32)
		require.NoError(t, l.Update([]int{0, 1, 2}, []int{0, 0, 0}))
		assert.Equal(t, []float64{0, 0, 0}, l.Elo)
	})
	t.Run("beating a stronger player gains more than beating a weaker one", func(t *testing.T) {
		l := NewLive(3, 32)
		l.Elo = []float64{0, 200, -200}
		require.NoError(t, l.Update([]int{0, 1}, []int{0, 1}))
		up := l.Elo[0]
		l.Elo[0] = 0
		require.NoError(t, l.Update([]int{0, 2}, []int{0, 1}))
		assert.Greater(t, up, l.Elo[0])
		assert.InDelta(t, 32*Expected(200), up, 1e-9)
	})
	t.Run("ratings sum to what they started at", func(t *testing.T) {
		l := NewLive(8, DefaultK)
		for _, g := range randomLadder(8, 500, 5, 3) {
			require.NoError(t, l.Update(g.seats, g.places))
		}
		sum := 0.0
		for _, e := range l.Elo {
			sum += e
		}
		assert.InDelta(t, 0, sum, 1e-9)
		assert.Greater(t, l.Elo[7], l.Elo[0], "the strongest ends above the weakest")
	})
}

// randomLadder plays games tables of size seats among players whose true strength is
// 60 i Elo for player i, in blocks of every rotation of one random table; a seat's
// place comes from its strength plus Gumbel noise, which makes pairwise outcomes
// follow the logistic (Elo) law.
func randomLadder(players, games, seats int, seed uint64) []game {
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []game
	perm := make([]int, players)
	for b := 0; len(out) < games; b++ {
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(players, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		table := append([]int(nil), perm[:seats]...)
		for rot := 0; rot < seats && len(out) < games; rot++ {
			st := make([]int, seats)
			perf := make([]int, seats)
			for s := range st {
				st[s] = table[(s+rot)%seats]
				nat := 60 * float64(st[s]) / eloPerNat
				perf[s] = int(1e6 * (nat - math.Log(-math.Log(rng.Float64()))))
			}
			out = append(out, game{block: fmt.Sprintf("b%d", b), seats: st, places: placesByKey(perf)})
		}
	}
	return out
}

func placesByKey(key []int) []int {
	pl := make([]int, len(key))
	for s := range key {
		for t := range key {
			if key[t] > key[s] {
				pl[s]++
			}
		}
	}
	return pl
}
