// Package stats is the arithmetic of match results: the Elo difference that a score
// fraction implies, its confidence interval, and the likelihood of superiority.
package stats

import "math"

// Elo is the Elo difference that an expected score p (0 < p < 1) implies under the
// logistic model: p = 1 / (1 + 10^(-d/400)). p of 0 or 1 gives -Inf or +Inf.
func Elo(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/p-1)
}

// Z95 is the two-sided 95% quantile of the normal distribution.
const Z95 = 1.959963984540054

// Interval is an estimate with its 95% confidence interval.
type Interval struct {
	Estimate, Low, High float64
}

// EloInterval turns per-block scores (each block's mean score fraction, e.g. one deal
// played in every seat rotation) over games games into the Elo difference of their mean
// and its 95% confidence interval. Blocks rather than games are the unit because the
// games of one deal are correlated by design. The interval is the Wilson score interval
// at the effective sample size the spread of the block means implies,
// n = p(1-p)/se^2, at most the number of games: where blocks vary it matches the normal
// interval of the block means, and where they are all alike (a perfect score, say) it
// stays honest instead of collapsing to a point: 200 won games give a lower bound near
// +687 Elo, not +Inf. With fewer than two blocks it is unbounded.
func EloInterval(blocks []float64, games int) Interval {
	var m Moments
	for _, x := range blocks {
		m.Add(x)
	}
	return m.EloInterval(games)
}

// Moments are the count, mean and sum of squared deviations of values added one at a
// time (Welford's method), so that a run's blocks need not be kept.
type Moments struct {
	N    int
	Mean float64
	SS   float64
}

// Add counts one value.
func (m *Moments) Add(x float64) {
	m.N++
	d := x - m.Mean
	m.Mean += d / float64(m.N)
	m.SS += d * (x - m.Mean)
}

// EloInterval is EloInterval of the blocks counted.
func (m Moments) EloInterval(games int) Interval {
	if m.N == 0 {
		return Interval{Estimate: math.NaN(), Low: math.Inf(-1), High: math.Inf(1)}
	}
	n, mean := float64(m.N), m.Mean
	if m.N < 2 || games < 2 {
		return Interval{Estimate: Elo(mean), Low: math.Inf(-1), High: math.Inf(1)}
	}
	varMean := max(m.SS, 0) / (n - 1) / n
	eff := float64(games)
	if varMean > 1e-15 {
		eff = min(eff, mean*(1-mean)/varMean)
	}
	eff = max(eff, 1)
	lo, hi := Wilson(mean, eff)
	return Interval{Estimate: Elo(mean), Low: Elo(lo), High: Elo(hi)}
}

// Wilson is the 95% Wilson score interval of a proportion p observed over n trials.
func Wilson(p, n float64) (lo, hi float64) {
	z2 := Z95 * Z95
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := Z95 / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	lo, hi = centre-half, centre+half
	// Analytically the bound at p = 0 or 1 is exactly 0 or 1; rounding must not turn an
	// unbounded Elo into a huge finite one.
	if p <= 0 {
		lo = 0
	}
	if p >= 1 {
		hi = 1
	}
	return lo, hi
}

// LOS is the likelihood of superiority: the probability that the side with wins W and
// losses L is the stronger, draws ignored (normal approximation of the binomial).
func LOS(wins, losses float64) float64 {
	if wins+losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf((wins-losses)/math.Sqrt(2*(wins+losses))))
}

// Percentile is the p-th percentile (0..100) of sorted values, by the nearest-rank
// method; 0 for no values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}
