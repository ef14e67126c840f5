package service

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/arena-games/arena/ladder"
)

// The chart's size and margins, in pixels: the margins hold the axes' labels.
const (
	chartW, chartH                             = 560.0, 220.0
	chartLeft, chartRight, chartTop, chartBase = 52.0, 14.0, 10.0, 40.0
)

// ratingChart draws a bot's official rating with its 95% band against the ladder's
// games: the x axis runs from the ladder's game count at the bot's first point to the
// last, so that a bot that joined late uses the whole width, and both axes carry
// labelled ticks.
func ratingChart(h []ladder.RatingPoint) template.HTML {
	if len(h) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		for _, v := range []float64{p.Low, p.High, p.Elo} {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if lo >= hi {
		lo, hi = lo-50, hi+50
	}
	if math.IsInf(lo, 0) {
		lo, hi = -100, 100
	}
	yt := ticks(lo, hi, 5)
	lo, hi = min(lo, yt[0]), max(hi, yt[len(yt)-1])
	x0, x1 := float64(h[0].LadderGames), float64(h[len(h)-1].LadderGames)
	plotW, plotH := chartW-chartLeft-chartRight, chartH-chartTop-chartBase
	x := func(n float64) float64 {
		if x1 == x0 {
			return chartLeft + plotW/2
		}
		return chartLeft + (n-x0)/(x1-x0)*plotW
	}
	y := func(v float64) float64 {
		switch {
		case math.IsInf(v, 1):
			return chartTop
		case math.IsInf(v, -1), math.IsNaN(v):
			return chartTop + plotH
		}
		return chartTop + plotH - (v-lo)/(hi-lo)*plotH
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" width="%.0f" height="%.0f" role="img" aria-label="official rating against the ladder's games" font-size="11" font-family="sans-serif">`, chartW, chartH)
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="#f7f7f7"/>`, chartLeft, chartTop, plotW, plotH)
	for _, v := range yt {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			chartLeft, y(v), chartLeft+plotW, y(v), chartLeft-4, y(v)+4, tickLabel(v))
	}
	xt := []float64{x0}
	if x1 > x0 {
		xt = ticks(x0, x1, 5)
	}
	for _, n := range xt {
		if n < x0 || n > x1 {
			continue
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`,
			x(n), chartTop+plotH, x(n), chartTop+plotH+4, x(n), chartTop+plotH+16, tickLabel(n))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">games recorded on the ladder (this version from game %d; %d of its own)</text>`,
		chartLeft+plotW/2, chartH-4, h[0].LadderGames, h[len(h)-1].BotGames)
	fmt.Fprintf(&b, `<text transform="translate(12 %.1f) rotate(-90)" text-anchor="middle">Elo</text>`, chartTop+plotH/2)
	var band, line strings.Builder
	for _, p := range h {
		fmt.Fprintf(&band, "%.1f,%.1f ", x(float64(p.LadderGames)), y(p.High))
		fmt.Fprintf(&line, "%.1f,%.1f ", x(float64(p.LadderGames)), y(p.Elo))
	}
	for i := len(h) - 1; i >= 0; i-- {
		fmt.Fprintf(&band, "%.1f,%.1f ", x(float64(h[i].LadderGames)), y(h[i].Low))
	}
	fmt.Fprintf(&b, `<polygon points="%s" fill="#9bd" fill-opacity="0.6"/><polyline points="%s" fill="none" stroke="#c30" stroke-width="2"/>`, band.String(), line.String())
	if len(h) == 1 {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#c30"/>`, x(x0), y(h[0].Elo))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// ticks are round values (1, 2 or 5 times a power of ten apart) from below lo to
// above hi, about n of them.
func ticks(lo, hi float64, n int) []float64 {
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * mag
	}
	var out []float64
	for v := math.Floor(lo/step) * step; v <= hi+step/2; v += step {
		out = append(out, v)
	}
	return out
}

func tickLabel(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// scoreInterval is the 95% Wilson interval of a score rate over n meetings (ties
// count half, as in the rate; the interval treats each meeting as one trial).
func scoreInterval(score float64, n int) (lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	const z = 1.959964
	nf := float64(n)
	centre := (score + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(score*(1-score)/nf+z*z/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}
