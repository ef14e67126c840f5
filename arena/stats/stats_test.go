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
		iv := EloInterval(blocks)
		assert.InDelta(t, Elo(0.625), iv.Estimate, 1e-9)
		assert.InDelta(t, Elo(0.625-Z95*0.125), iv.Low, 1e-6)
		assert.InDelta(t, Elo(0.625+Z95*0.125), iv.High, 1e-6)
		assert.Less(t, iv.Low, iv.Estimate)
		assert.Greater(t, iv.High, iv.Estimate)
	})
	t.Run("identical blocks give a point interval", func(t *testing.T) {
		iv := EloInterval([]float64{0.75, 0.75, 0.75})
		assert.InDelta(t, iv.Estimate, iv.Low, 1e-9)
		assert.InDelta(t, iv.Estimate, iv.High, 1e-9)
	})
	t.Run("one block is unbounded", func(t *testing.T) {
		iv := EloInterval([]float64{0.5})
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
