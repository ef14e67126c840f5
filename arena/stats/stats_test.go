package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLOSMatchesPublishedFigures(t *testing.T) {
	// The figure quoted for engine testing: 5975 wins, 6077 losses.
	assert.InDelta(t, 0.176414, LOS(5975, 6077), 1e-6)
	assert.InDelta(t, 1-0.176414, LOS(6077, 5975), 1e-6)
	assert.Equal(t, 0.5, LOS(0, 0), "no decisive game says nothing")
	assert.Equal(t, 0.5, LOS(40, 40))
}

func TestEloOfAScoreFraction(t *testing.T) {
	cases := []struct {
		p, elo float64
	}{
		{0.5, 0},
		{0.75, 190.848501887865}, // 400*log10(3)
		{0.25, -190.848501887865},
		{10.0 / 11, 400}, // odds 10:1 are 400 Elo
		{0.64, 99.951},   // the rule of thumb "64% is 100 Elo"
	}
	for _, c := range cases {
		assert.InDelta(t, c.elo, Elo(c.p), 1e-3, "p=%v", c.p)
	}
	assert.True(t, math.IsInf(Elo(1), 1))
	assert.True(t, math.IsInf(Elo(0), -1))
}

func TestEloIntervalFromBlocks(t *testing.T) {
	t.Run("spread of block means sets the interval", func(t *testing.T) {
		blocks := []float64{0.5, 1, 0.5, 0, 1, 0.5, 1, 0.5}
		// mean 0.625, sample sd 0.3536, se 0.125, so p in 0.625 ± 0.245
		iv := EloInterval(blocks, 16)
		assert.InDelta(t, Elo(0.625), iv.Estimate, 1e-9)
		// n_eff = 0.625*0.375/0.125^2 = 15: Wilson(0.625, 15) = [0.379, 0.820].
		lo, hi := Wilson(0.625, 15)
		assert.InDelta(t, 0.379, lo, 0.001)
		assert.InDelta(t, 0.820, hi, 0.001)
		assert.InDelta(t, Elo(lo), iv.Low, 1e-6)
		assert.InDelta(t, Elo(hi), iv.High, 1e-6)
		assert.Less(t, iv.Low, iv.Estimate)
		assert.Greater(t, iv.High, iv.Estimate)
	})
	t.Run("identical blocks still leave an interval", func(t *testing.T) {
		iv := EloInterval([]float64{0.75, 0.75, 0.75}, 6)
		assert.InDelta(t, 190.85, iv.Estimate, 0.01)
		assert.Less(t, iv.Low, iv.Estimate-100, "three deals prove little")
		assert.Greater(t, iv.High, iv.Estimate+100)
	})
	t.Run("one block is unbounded", func(t *testing.T) {
		iv := EloInterval([]float64{0.5}, 2)
		assert.True(t, math.IsInf(iv.Low, -1) && math.IsInf(iv.High, 1))
	})
}

func TestPercentileNearestRank(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	assert.Equal(t, 10.0, Percentile(v, 99))
	assert.Equal(t, 5.0, Percentile(v, 50))
	assert.Equal(t, 1.0, Percentile(v, 1))
	assert.Equal(t, 0.0, Percentile(nil, 99))
}

func TestEloIntervalStaysHonestAtAPerfectScore(t *testing.T) {
	perfect := make([]float64, 100)
	for i := range perfect {
		perfect[i] = 1
	}
	for _, games := range []int{30, 200, 1000} {
		iv := EloInterval(perfect, games)
		assert.True(t, math.IsInf(iv.High, 1), "%d games", games)
		zero := EloInterval(make([]float64, 100), games)
		assert.True(t, math.IsInf(zero.Low, -1), "%d games", games)
	}
	iv := EloInterval(perfect, 200)
	assert.True(t, math.IsInf(iv.Estimate, 1))
	assert.True(t, math.IsInf(iv.High, 1))
	assert.InDelta(t, 687, iv.Low, 2, "the Wilson bound of 200 won games")
	lo, hi := Wilson(0.5, 100)
	assert.InDelta(t, 0.404, lo, 0.001)
	assert.InDelta(t, 0.596, hi, 0.001)
}
