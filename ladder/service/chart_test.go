package service

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder"
)

// A bot that joined a ladder late has its curve drawn over the whole width, from its
// first point to its last, and both axes say what they measure with round ticks.
func TestTheRatingChartReads(t *testing.T) {
	var h []ladder.RatingPoint
	for n := 600; n <= 1000; n += 100 {
		h = append(h, ladder.RatingPoint{LadderGames: n, BotGames: (n - 500) / 4, Elo: float64(n-800) / 2, Low: float64(n-800)/2 - 40, High: float64(n-800)/2 + 40})
	}
	svg := string(ratingChart(h))
	line := regexp.MustCompile(`<polyline points="([^"]+)"`).FindStringSubmatch(svg)
	require.NotNil(t, line, svg)
	pts := strings.Fields(line[1])
	xy := func(p string) (float64, float64) {
		x, y, _ := strings.Cut(p, ",")
		fx, _ := strconv.ParseFloat(x, 64)
		fy, _ := strconv.ParseFloat(y, 64)
		return fx, fy
	}
	x0, _ := xy(pts[0])
	x1, _ := xy(pts[len(pts)-1])
	assert.InDelta(t, chartLeft, x0, 0.1, "the curve starts at the left edge")
	assert.InDelta(t, chartW-chartRight, x1, 0.1, "and ends at the right edge")
	assert.Contains(t, svg, "games recorded on the ladder")
	assert.Contains(t, svg, "this version from game 600; 125 of its own")
	assert.Contains(t, svg, ">Elo</text>")
	for _, tick := range []string{">600<", ">800<", ">1000<", ">-100<", ">0<", ">100<"} {
		assert.Contains(t, svg, tick)
	}
	one := string(ratingChart(h[:1]))
	assert.Contains(t, one, "<circle", "a single point is drawn as a dot")
}

func TestScoreInterval(t *testing.T) {
	lo, hi := scoreInterval(0.5, 100)
	assert.InDelta(t, 0.404, lo, 0.001)
	assert.InDelta(t, 0.596, hi, 0.001)
	lo, hi = scoreInterval(1, 3)
	assert.InDelta(t, 0.439, lo, 0.001)
	assert.Equal(t, 1.0, hi)
	lo, _ = scoreInterval(0, 0)
	assert.True(t, math.IsNaN(lo))
}
