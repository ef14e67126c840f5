package rating

import (
	"fmt"
	"math"
)

// neloPerT converts a normalized t-value (mean score minus one half, over the standard
// deviation of one game's score) into normalized Elo: 800/ln 10. Normalized Elo is the
// scale on which a test's cost depends only on its bounds, whatever the draw rate.
var neloPerT = 800 / math.Ln10

// z975 is the 97.5% quantile of the standard normal distribution.
var z975 = math.Sqrt2 * math.Erfinv(0.95)

// Pentanomial counts the blocks of a two-player match played as game pairs (one deal,
// both seatings) by the pair's total score for the first player: [0] both lost, [1] a
// loss and a draw, [2] two draws or a win and a loss, [3] a win and a draw, [4] both
// won. Pairs are the unit because the two games of a deal are correlated by design;
// counting them as pairs gives the honest, narrower variance.
type Pentanomial [5]int

// Add counts one pair from its two game scores (each 0, 0.5 or 1).
func (p *Pentanomial) Add(a, b float64) error {
	k := int(math.Round(2 * (a + b)))
	if k < 0 || k > 4 || math.Abs(2*(a+b)-float64(k)) > 1e-9 {
		return fmt.Errorf("game scores %v and %v do not make a pair score in 0, 0.5, ..., 2", a, b)
	}
	p[k]++
	return nil
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Summary is what a head-to-head match shows: Elo and normalized Elo with the half
// width of their 95% intervals, and the likelihood of superiority.
type Summary struct {
	Elo, Elo95   float64
	NElo, NElo95 float64
	LOS          float64
}

// Summary estimates the match as fishtest reports it: the per-game mean score and its
// standard error come from the pair distribution; Elo95 is half the width of the
// interval the score's 95% interval maps to; NElo95 uses the delta-method variance of
// the t-value (which involves the skewness and kurtosis of the pair scores).
func (p Pentanomial) Summary() Summary {
	d := p.distribution()
	n := float64(p.Pairs())
	if n == 0 {
		return Summary{Elo: math.NaN(), Elo95: math.NaN(), NElo: math.NaN(), NElo95: math.NaN(), LOS: 0.5}
	}
	mu, v := d.stats()
	se := math.Sqrt(v / n)
	s := Summary{
		Elo:   clampedElo(mu),
		Elo95: (clampedElo(mu+z975*se) - clampedElo(mu-z975*se)) / 2,
		LOS:   normalCDF((mu - 0.5) / se),
	}
	// A pair's score is the mean of two games, so one game's standard deviation is
	// sqrt(2) times the pair's.
	t := (mu - 0.5) / math.Sqrt(v)
	skew, exkurt := d.shape(mu, v)
	varT := max(1-t*skew+0.25*t*t*(exkurt+2), 0)
	s.NElo = t / math.Sqrt2 * neloPerT
	s.NElo95 = z975 * math.Sqrt(varT/n) / math.Sqrt2 * neloPerT
	return s
}

// clampedElo is the Elo of a score kept inside [0.001, 0.999], as fishtest does, so a
// one-sided sample still gives a number.
func clampedElo(x float64) float64 {
	x = min(max(x, 1e-3), 1-1e-3)
	return -400 * math.Log10(1/x-1)
}

func normalCDF(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

// distribution is the empirical distribution of pair scores (0, 1/4, ..., 1 per game),
// an empty cell counting 0.001 so that the likelihood ratio stays finite.
func (p Pentanomial) distribution() distribution {
	d := distribution{value: make([]float64, 5), prob: make([]float64, 5)}
	total := 0.0
	for i, c := range p {
		d.value[i] = float64(i) / 4
		d.prob[i] = float64(c)
		if c == 0 {
			d.prob[i] = 1e-3
		}
		total += d.prob[i]
	}
	for i := range d.prob {
		d.prob[i] /= total
	}
	d.n = total
	return d
}

// SPRT is a generalized sequential probability ratio test of H0: nElo = NElo0 against
// H1: nElo = NElo1, with bounds in normalized Elo as fishtest sets them; Alpha and Beta
// are the largest error rates (false H1, false H0).
type SPRT struct {
	NElo0, NElo1 float64
	Alpha, Beta  float64
}

// Decision is where a test stands.
type Decision int

const (
	// Continue: neither bound is crossed; play more.
	Continue Decision = iota
	// AcceptH0: the lower bound is crossed (the change is not an improvement of NElo1).
	AcceptH0
	// AcceptH1: the upper bound is crossed.
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Check rejects error rates outside (0, 1) and equal bounds.
func (s SPRT) Check() error {
	if !(s.Alpha > 0 && s.Alpha < 1 && s.Beta > 0 && s.Beta < 1) {
		return fmt.Errorf("alpha %v and beta %v must lie strictly between 0 and 1", s.Alpha, s.Beta)
	}
	if s.Alpha+s.Beta >= 1 {
		// The bounds cross: log(beta/(1-alpha)) >= log((1-beta)/alpha).
		return fmt.Errorf("alpha %v + beta %v must be below 1 (the test's bounds would cross)", s.Alpha, s.Beta)
	}
	if !(s.NElo0 < s.NElo1) {
		return fmt.Errorf("elo0 %v must be below elo1 %v", s.NElo0, s.NElo1)
	}
	return nil
}

// Bounds are the log-likelihood ratios at which the test stops: log(beta/(1-alpha))
// and log((1-beta)/alpha).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decide is the test's state after the pairs counted in p.
func (s SPRT) Decide(p Pentanomial) (llr float64, d Decision, err error) {
	if err := s.Check(); err != nil {
		return 0, Continue, err
	}
	llr, err = s.LLR(p)
	if err != nil {
		return 0, Continue, err
	}
	lo, hi := s.Bounds()
	switch {
	case llr <= lo:
		d = AcceptH0
	case llr >= hi:
		d = AcceptH1
	}
	return llr, d, nil
}

// LLR is the generalized log-likelihood ratio of the pairs in p: the log of the
// likelihood of the best pair-score distribution whose normalized Elo is NElo1 over that
// of the best one whose normalized Elo is NElo0, both fitted to the observed counts.
func (s SPRT) LLR(p Pentanomial) (float64, error) {
	if p.Pairs() == 0 {
		return 0, nil
	}
	d := p.distribution()
	// The t-value of a pair is sqrt(2) times that of a game.
	t0, t1 := s.NElo0/neloPerT*math.Sqrt2, s.NElo1/neloPerT*math.Sqrt2
	return d.llr(t0, t1)
}

// BlockLLR is LLR for blocks of any size: scores holds each block's mean score per game
// for the first player (for a two-player block, a pair: 0, 0.25, ..., 1), games the
// number of games in a block. It serves matches whose blocks are not pairs.
func (s SPRT) BlockLLR(scores []float64, games int) (float64, error) {
	if games < 1 {
		return 0, fmt.Errorf("%d games per block", games)
	}
	d := distribution{}
	seen := map[float64]int{}
	for _, x := range scores {
		if x < 0 || x > 1 || math.IsNaN(x) {
			return 0, fmt.Errorf("block score %v is outside [0, 1]", x)
		}
		i, ok := seen[x]
		if !ok {
			i = len(d.value)
			seen[x] = i
			d.value = append(d.value, x)
			d.prob = append(d.prob, 0)
		}
		d.prob[i]++
	}
	if len(d.value) < 2 {
		return 0, nil // no spread: nothing to tell the hypotheses apart
	}
	d.n = float64(len(scores))
	for i := range d.prob {
		d.prob[i] /= d.n
	}
	scale := math.Sqrt(float64(games))
	return d.llr(s.NElo0/neloPerT*scale, s.NElo1/neloPerT*scale)
}

// distribution is a discrete empirical distribution of block scores.
type distribution struct {
	value, prob []float64
	n           float64 // the number of blocks behind it
}

func (d distribution) stats() (mu, v float64) {
	for i, x := range d.value {
		mu += d.prob[i] * x
	}
	for i, x := range d.value {
		v += d.prob[i] * (x - mu) * (x - mu)
	}
	return mu, v
}

func (d distribution) shape(mu, v float64) (skew, exkurt float64) {
	var m3, m4 float64
	for i, x := range d.value {
		e := x - mu
		m3 += d.prob[i] * e * e * e
		m4 += d.prob[i] * e * e * e * e
	}
	return m3 / math.Pow(v, 1.5), m4/(v*v) - 3
}

// llr is n times the mean log ratio of the two constrained maximum-likelihood
// distributions, at t-values t0 and t1 about a mean of one half.
func (d distribution) llr(t0, t1 float64) (float64, error) {
	p0, err := d.mleT(t0)
	if err != nil {
		return 0, err
	}
	p1, err := d.mleT(t1)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for i, q := range d.prob {
		sum += q * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return d.n * sum, nil
}

// mleT is the distribution on d's values closest in likelihood to d among those with
// (mean - 1/2) / sd = t. The constrained maximum has the form prob_i / (1 + x b_i),
// where b_i depends on the solution's own mean and spread, so it is found by fixed-point
// iteration from the uniform distribution, solving for the multiplier x each round.
func (d distribution) mleT(t float64) ([]float64, error) {
	n := len(d.value)
	q := make([]float64, n)
	for i := range q {
		q[i] = 1 / float64(n)
	}
	b := make([]float64, n)
	for range 100 {
		mu, v := distribution{value: d.value, prob: q}.stats()
		sd := math.Sqrt(v)
		for i, a := range d.value {
			z := (mu - a) / sd
			b[i] = a - 0.5 - t*sd*(1+z*z)/2
		}
		x, err := secular(d.prob, b)
		if err != nil {
			return nil, err
		}
		change := 0.0
		for i := range q {
			nq := d.prob[i] / (1 + x*b[i])
			change = max(change, math.Abs(nq-q[i]))
			q[i] = nq
		}
		if change < 1e-12 {
			return q, nil
		}
	}
	return q, nil
}

// secular solves sum_i p_i b_i / (1 + x b_i) = 0 for x where every 1 + x b_i > 0. The
// left side falls strictly with x on that interval, from +inf to -inf, so bisection
// finds the root.
func secular(p, b []float64) (float64, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, v := range b {
		switch {
		case v > 0:
			lo = max(lo, -1/v)
		case v < 0:
			hi = min(hi, -1/v)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, fmt.Errorf("the test's bounds lie outside the observed scores")
	}
	f := func(x float64) float64 {
		s := 0.0
		for i, v := range b {
			s += p[i] * v / (1 + x*v)
		}
		return s
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}
