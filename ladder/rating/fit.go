package rating

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// DefaultPrior is the official fit's prior in virtual games: each player is credited
// with this many draws against a virtual player at the field's centre. It is weak next
// to a ladder's hundreds of games, yet keeps a bot that has never lost (or never won)
// at a finite rating, and a bot not yet connected to the rest by any game defined.
const DefaultPrior = 2

// DefaultResamples is the number of bootstrap resamples behind an interval: enough
// for stable 2.5% and 97.5% percentiles at a fraction of a second per fit.
const DefaultResamples = 200

// maxSeats bounds a table so that points stay whole numbers of unit (below).
const maxSeats = 8

// unit is the number of tally units in one point: every pairwise point of a game of up
// to maxSeats players, 1/(n-1) for a win and half that for a tie, is a whole number of
// 1/840 (840 = 2 * lcm(1..7)). Whole numbers make the totals, and so the fit, exactly
// the same in whatever order the games were added.
const unit = 840

// tally is what one block gave a pair of players a < b: the points of each, in units.
type tally struct {
	a, b   int32
	pa, pb int64
}

// Results holds recorded games aggregated into pairwise points per block, which is
// all the official fit and its bootstrap need: memory grows with blocks and pairs, not
// with the games inside a block.
type Results struct {
	players int
	index   map[string]int
	keys    []string
	blocks  [][]tally
	games   int
}

// NewResults holds the games of players numbered 0..players-1.
func NewResults(players int) *Results {
	return &Results{players: players, index: map[string]int{}}
}

// Games is the number of games added.
func (r *Results) Games() int { return r.games }

// Grow makes room for players numbered up to players-1 (never fewer than before): a
// ladder's running results gain players as new bots play.
func (r *Results) Grow(players int) { r.players = max(r.players, players) }

// Renumbered is a copy of r in which player i is player to[i], of players in all (to
// must not send two players to one number). A fit depends on the players' numbers
// only through the order of its sums, so a copy numbered as a fresh read would number
// them fits exactly as that read does.
func (r *Results) Renumbered(to []int, players int) *Results {
	out := &Results{players: players, index: make(map[string]int, len(r.index)), keys: slices.Clone(r.keys),
		blocks: make([][]tally, len(r.blocks)), games: r.games}
	for k, v := range r.index {
		out.index[k] = v
	}
	for bi, ts := range r.blocks {
		nt := make([]tally, len(ts))
		for k, t := range ts {
			a, b, pa, pb := int32(to[t.a]), int32(to[t.b]), t.pa, t.pb
			if a > b {
				a, b, pa, pb = b, a, pb, pa
			}
			nt[k] = tally{a: a, b: b, pa: pa, pb: pb}
		}
		out.blocks[bi] = nt
	}
	return out
}

// Blocks is the number of distinct blocks added.
func (r *Results) Blocks() int { return len(r.keys) }

// Add records one game of block (one deal played in every seat rotation; the
// bootstrap resamples whole blocks because their games are correlated by design):
// seats[i] is the player in seat i and places[i] its place, 0 first, ties sharing.
func (r *Results) Add(block string, seats, places []int) error {
	if err := checkGame(r.players, seats, places); err != nil {
		return err
	}
	n := len(seats)
	if n > maxSeats {
		return fmt.Errorf("a game of %d seats: at most %d are rated", n, maxSeats)
	}
	bi, ok := r.index[block]
	if !ok {
		bi = len(r.keys)
		r.index[block] = bi
		r.keys = append(r.keys, block)
		r.blocks = append(r.blocks, nil)
	}
	win := int64(unit / (n - 1))
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := seats[i], seats[j]
			pa := win * int64(2*pairScore(places[i], places[j])) / 2
			pb := win - pa
			if a > b {
				a, b, pa, pb = b, a, pb, pa
			}
			r.blocks[bi] = addTally(r.blocks[bi], int32(a), int32(b), pa, pb)
		}
	}
	r.games++
	return nil
}

func addTally(ts []tally, a, b int32, pa, pb int64) []tally {
	for k := range ts {
		if ts[k].a == a && ts[k].b == b {
			ts[k].pa += pa
			ts[k].pb += pb
			return ts
		}
	}
	return append(ts, tally{a: a, b: b, pa: pa, pb: pb})
}

// Options tunes Fit.
type Options struct {
	// Prior is the number of virtual draws each player has against a player at the
	// field's centre (see DefaultPrior); 0 fits the bare likelihood, which diverges
	// for a player who never lost or never won.
	Prior float64
	// Anchor is the player held at 0 (the built-in random bot), or -1 to make the
	// mean rating 0.
	Anchor int
	// Resamples is the number of bootstrap resamples for the 95% intervals; 0 leaves
	// the intervals NaN.
	Resamples int
	// Seed seeds the bootstrap.
	Seed uint64
}

// Rating is one player's official Elo with its 95% interval.
type Rating struct {
	Elo, Low, High float64
}

// ErrNotIdentifiable is wrapped by Fit's error when the games do not pin the ratings
// down (no prior and a player without games, or groups of players that never met).
var ErrNotIdentifiable = errors.New("ratings are not identifiable from these games")

// Fit is the maximum-likelihood (with Prior, maximum a posteriori) Bradley-Terry fit of
// every pairwise outcome added, on the Elo scale and anchored as Options say; the
// interval of each rating is the 2.5 and 97.5 percentiles of the fits of Resamples
// bootstrap resamples, each drawing as many whole blocks as there are, with
// replacement; for a player at a perfect (or zero) score, where every resample repeats
// the same extreme, it is at least the posterior's 95% normal interval, so that it
// never collapses to a point. The result does not depend on the order in which games were added.
func (r *Results) Fit(opt Options) ([]Rating, error) {
	p := r.players
	if opt.Anchor >= p || opt.Anchor < -1 {
		return nil, fmt.Errorf("anchor %d is not one of the %d players", opt.Anchor, p)
	}
	if opt.Prior < 0 || math.IsNaN(opt.Prior) {
		return nil, fmt.Errorf("prior %v is negative", opt.Prior)
	}
	prob := newProblem(p, opt)
	pts := make([]int64, p*p)
	for _, ts := range r.blocks {
		accumulate(pts, p, ts)
	}
	theta := make([]float64, p)
	if err := prob.solve(pts, theta); err != nil {
		return nil, err
	}
	out := make([]Rating, p)
	for i, e := range prob.elo(theta) {
		out[i] = Rating{Elo: e, Low: math.NaN(), High: math.NaN()}
	}
	if opt.Resamples <= 0 || len(r.blocks) == 0 {
		return out, nil
	}

	// Blocks are numbered in their keys' order so that the resamples, like the totals,
	// do not depend on the order of Add. A resample is drawn as how many times each
	// block is picked, then summed in one sequential pass: a million games resampled
	// block by block at random spent most of the time waiting on memory.
	flat, start := r.sortedTallies()
	nb := len(start) - 1
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	samples := make([][]float64, p)
	for i := range samples {
		samples[i] = make([]float64, 0, opt.Resamples)
	}
	picks := make([]int32, nb)
	bt := make([]float64, p)
	for range opt.Resamples {
		clear(picks)
		for range nb {
			picks[rng.IntN(nb)]++
		}
		clear(pts)
		for b, c := range picks {
			if c == 0 {
				continue
			}
			for _, t := range flat[start[b]:start[b+1]] {
				pts[int(t.a)*p+int(t.b)] += int64(c) * t.pa
				pts[int(t.b)*p+int(t.a)] += int64(c) * t.pb
			}
		}
		copy(bt, theta)
		if err := prob.solve(pts, bt); err != nil {
			return nil, fmt.Errorf("bootstrap resample: %w", err)
		}
		for i, e := range prob.elo(bt) {
			samples[i] = append(samples[i], e)
		}
	}
	for i, s := range samples {
		slices.Sort(s)
		out[i].Low = quantile(s, 0.025)
		out[i].High = quantile(s, 0.975)
	}
	clear(pts)
	for _, ts := range r.blocks {
		accumulate(pts, p, ts)
	}
	return out, prob.widenAtBoundary(pts, theta, out)
}

// widenAtBoundary widens the interval of every player who never lost a point or never
// won one to at least the 95% normal interval of the posterior (its curvature at the
// fit, which the prior keeps finite). At such a score every resample repeats the same
// extreme, so the bootstrap collapses to a point that the data cannot support: one
// more game could have gone the other way. Elsewhere the block bootstrap stands.
func (pr *problem) widenAtBoundary(pts []int64, theta []float64, out []Rating) error {
	if pr.prior <= 0 {
		return nil // without a prior a boundary score has no finite fit to widen around
	}
	p := pr.p
	v := make([]float64, p)
	for i := range p {
		var won, lost int64
		for j := range p {
			won += pts[i*p+j]
			lost += pts[j*p+i]
		}
		if i == pr.anchor || (won > 0 && lost > 0) || won+lost == 0 {
			continue
		}
		pr.gradHess(theta) // cholSolve overwrites the Hessian
		// v is the rating's direction: theta_i less the anchor's (or the mean's).
		for k := range v {
			v[k] = 0
			if pr.anchor < 0 {
				v[k] = -1 / float64(p)
			}
		}
		v[i]++
		if pr.anchor >= 0 {
			v[pr.anchor]--
		}
		x := append([]float64(nil), v...)
		if err := cholSolve(pr.a, x, p); err != nil {
			return err
		}
		variance := 0.0
		for k := range v {
			variance += v[k] * x[k]
		}
		half := z975 * math.Sqrt(variance) * eloPerNat
		out[i].Low = math.Min(out[i].Low, out[i].Elo-half)
		out[i].High = math.Max(out[i].High, out[i].Elo+half)
	}
	return nil
}

// sortedTallies lays every block's tallies out in one slice, blocks in the order of
// their keys; block b's are flat[start[b]:start[b+1]].
func (r *Results) sortedTallies() (flat []tally, start []int) {
	order := make([]int, len(r.keys))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool { return r.keys[order[x]] < r.keys[order[y]] })
	start = make([]int, 1, len(order)+1)
	for _, b := range order {
		flat = append(flat, r.blocks[b]...)
		start = append(start, len(flat))
	}
	return flat, start
}

func accumulate(pts []int64, p int, ts []tally) {
	for _, t := range ts {
		pts[int(t.a)*p+int(t.b)] += t.pa
		pts[int(t.b)*p+int(t.a)] += t.pb
	}
}

// quantile interpolates linearly between the order statistics of sorted.
func quantile(sorted []float64, q float64) float64 {
	x := q * float64(len(sorted)-1)
	i := int(x)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	f := x - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// eloPerNat converts a natural-log strength difference into Elo.
var eloPerNat = 400 / math.Ln10

// problem is the Bradley-Terry likelihood with its prior, solved by Newton's method:
// with P(i beats j) = sigmoid(theta_i - theta_j) the log-likelihood is concave, so
// Newton with step halving converges in a handful of iterations even for a hundred
// players, where the classic minorize-maximize iteration needs thousands.
type problem struct {
	p      int
	prior  float64
	anchor int
	// fixed is the player held at theta 0 while solving when nothing else pins the
	// ratings (no prior), or -1.
	fixed int
	w     []float64 // w[i*p+j]: points of i against j
	a     []float64 // the negative Hessian
	g     []float64 // the gradient, then the Newton step
	trial []float64
}

func newProblem(p int, opt Options) *problem {
	pr := &problem{p: p, prior: opt.Prior, anchor: opt.Anchor, fixed: -1,
		w: make([]float64, p*p), a: make([]float64, p*p), g: make([]float64, p), trial: make([]float64, p)}
	if opt.Prior == 0 {
		pr.fixed = max(opt.Anchor, 0)
	}
	return pr
}

// elo shifts theta to the anchor and scales it to Elo.
func (pr *problem) elo(theta []float64) []float64 {
	shift := 0.0
	if pr.anchor >= 0 {
		shift = theta[pr.anchor]
	} else {
		for _, t := range theta {
			shift += t
		}
		shift /= float64(len(theta))
	}
	out := make([]float64, len(theta))
	for i, t := range theta {
		out[i] = (t - shift) * eloPerNat
	}
	return out
}

const (
	maxNewton = 100
	tolerance = 1e-10 // largest step in natural units at convergence (~4e-8 Elo)
)

// solve maximizes the posterior from the starting point in theta.
func (pr *problem) solve(pts []int64, theta []float64) error {
	for i, v := range pts {
		pr.w[i] = float64(v) / unit
	}
	if pr.fixed >= 0 {
		theta[pr.fixed] = 0
	}
	ll := pr.loglik(theta)
	for range maxNewton {
		pr.gradHess(theta)
		if err := cholSolve(pr.a, pr.g, pr.p); err != nil {
			return err
		}
		step := pr.g
		t := 1.0
		var next float64
		for {
			for i := range theta {
				pr.trial[i] = theta[i] + t*step[i]
			}
			next = pr.loglik(pr.trial)
			if next >= ll-1e-12*math.Abs(ll) || t < 1e-9 {
				break
			}
			t /= 2
		}
		biggest := 0.0
		for i := range theta {
			biggest = max(biggest, math.Abs(t*step[i]))
		}
		copy(theta, pr.trial)
		ll = next
		if biggest < tolerance {
			return nil
		}
	}
	return fmt.Errorf("%w: the fit did not converge after %d Newton steps (a player that never lost or never won needs a prior)", ErrNotIdentifiable, maxNewton)
}

// logSigmoid is log(1/(1+e^-x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func (pr *problem) loglik(theta []float64) float64 {
	p, ll := pr.p, 0.0
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			wij, wji := pr.w[i*p+j], pr.w[j*p+i]
			if wij+wji == 0 {
				continue
			}
			d := theta[i] - theta[j]
			ll += wij*logSigmoid(d) + wji*logSigmoid(-d)
		}
		if pr.prior > 0 {
			ll += pr.prior / 2 * (logSigmoid(theta[i]) + logSigmoid(-theta[i]))
		}
	}
	return ll
}

// gradHess fills pr.g with the gradient of the log posterior and pr.a with its negative
// Hessian; the fixed player's row and column are replaced by the identity so its step
// is 0.
func (pr *problem) gradHess(theta []float64) {
	p := pr.p
	clear(pr.a)
	clear(pr.g)
	for i := 0; i < p; i++ {
		for j := i + 1; j < p; j++ {
			wij, wji := pr.w[i*p+j], pr.w[j*p+i]
			n := wij + wji
			if n == 0 {
				continue
			}
			s := sigmoid(theta[i] - theta[j])
			pr.g[i] += wij - n*s
			pr.g[j] -= wij - n*s
			h := n * s * (1 - s)
			pr.a[i*p+i] += h
			pr.a[j*p+j] += h
			pr.a[i*p+j] -= h
			pr.a[j*p+i] -= h
		}
		if pr.prior > 0 {
			s := sigmoid(theta[i])
			pr.g[i] += pr.prior * (0.5 - s)
			pr.a[i*p+i] += pr.prior * s * (1 - s)
		}
	}
	if f := pr.fixed; f >= 0 {
		for k := 0; k < p; k++ {
			pr.a[f*p+k], pr.a[k*p+f] = 0, 0
		}
		pr.a[f*p+f] = 1
		pr.g[f] = 0
	}
}

// cholSolve solves a x = b in place (x into b) for a symmetric positive definite a,
// overwriting a with its Cholesky factor. A pivot that is not positive means the
// ratings are not pinned down.
func cholSolve(a, b []float64, n int) error {
	for j := 0; j < n; j++ {
		d := a[j*n+j]
		for k := 0; k < j; k++ {
			d -= a[j*n+k] * a[j*n+k]
		}
		if !(d > 1e-12) {
			return fmt.Errorf("%w: player %d has no games, or a group of players never met the others (add a prior)", ErrNotIdentifiable, j)
		}
		d = math.Sqrt(d)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			rowI, rowJ := a[i*n:i*n+j], a[j*n:j*n+j]
			for k := range rowI {
				s -= rowI[k] * rowJ[k]
			}
			a[i*n+j] = s / d
		}
	}
	for i := 0; i < n; i++ { // forward: L y = b
		s := b[i]
		for k := 0; k < i; k++ {
			s -= a[i*n+k] * b[k]
		}
		b[i] = s / a[i*n+i]
	}
	for i := n - 1; i >= 0; i-- { // back: L^T x = y
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= a[k*n+i] * b[k]
		}
		b[i] = s / a[i*n+i]
	}
	return nil
}
