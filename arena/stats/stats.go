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
// played in every seat rotation) into the Elo difference of their mean and its 95%
// confidence interval. Blocks rather than games are the unit because the games of one
// deal are correlated by design; the interval comes from the spread of block means
// (normal approximation). With fewer than two blocks the interval is unbounded.
func EloInterval(blocks []float64) Interval {
	n := float64(len(blocks))
	if n == 0 {
		return Interval{Estimate: math.NaN(), Low: math.Inf(-1), High: math.Inf(1)}
	}
	mean := 0.0
	for _, x := range blocks {
		mean += x
	}
	mean /= n
	if n < 2 {
		return Interval{Estimate: Elo(mean), Low: math.Inf(-1), High: math.Inf(1)}
	}
	ss := 0.0
	for _, x := range blocks {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss / (n - 1) / n)
	return Interval{Estimate: Elo(mean), Low: Elo(mean - Z95*se), High: Elo(mean + Z95*se)}
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
