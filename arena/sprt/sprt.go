// Package sprt is the sequential test of `arena match --sprt`: the first bot against
// the second, one pentanomial count per deal (both seatings), stopping the run when
// the test decides. The statistics are ladder/rating's; this package reads the
// test's spec, feeds it the run's deals and reports it.
package sprt

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/ladder/rating"
)

// Run is one sequential test over a run's deals.
type Run struct {
	// m, when set, holds the metrics' SPRT series of the tested bot.
	m        *metrics.Metrics
	bot      string
	test     rating.SPRT
	penta    rating.Pentanomial
	llr      float64
	decision rating.Decision
	err      error
}

// Parse reads "elo0,elo1[,alpha,beta]": normalized-Elo bounds and error rates (0.05
// each by default), as fishtest states them.
func Parse(spec string) (*Run, error) {
	parts := strings.Split(spec, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return nil, fmt.Errorf("%q: want elo0,elo1 or elo0,elo1,alpha,beta", spec)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %q is not a number", spec, p)
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%q: %q is not a finite number", spec, p)
		}
		v[i] = x
	}
	t := rating.SPRT{NElo0: v[0], NElo1: v[1], Alpha: 0.05, Beta: 0.05}
	if len(v) == 4 {
		t.Alpha, t.Beta = v[2], v[3]
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("%q: %w", spec, err)
	}
	return &Run{test: t}, nil
}

// Stop is arena.Config.Stop: count the newest deal and say whether the test decided
// (or failed: Err).
func (s *Run) Stop(deal arena.DealBlock) bool {
	m := deal.Points[0] // the first bot's mean over both seatings
	if s.err = s.penta.Add(m, m); s.err != nil {
		return true
	}
	s.llr, s.decision, s.err = s.test.Decide(s.penta)
	if s.m != nil {
		s.m.SPRTLLR.WithLabelValues(s.bot).Set(s.llr)
		s.m.SPRTPairs.WithLabelValues(s.bot).Inc()
	}
	return s.err != nil || s.decision != rating.Continue
}

// Err is why the test could not go on, if it could not.
func (s *Run) Err() error { return s.err }

// JSON is the test's state in `arena match --json`.
type JSON struct {
	Elo0    float64 `json:"elo0"`
	Elo1    float64 `json:"elo1"`
	Alpha   float64 `json:"alpha"`
	Beta    float64 `json:"beta"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower_bound"`
	Upper   float64 `json:"upper_bound"`
	Pairs   int     `json:"deal_pairs"`
	Penta   [5]int  `json:"pentanomial"`
	Verdict string  `json:"verdict"` // "H0 accepted", "H1 accepted" or "continue"
	Error   string  `json:"error,omitempty"`
}

// JSON is the test's state; nil for no test.
func (s *Run) JSON() *JSON {
	if s == nil {
		return nil
	}
	lo, hi := s.test.Bounds()
	j := &JSON{Elo0: s.test.NElo0, Elo1: s.test.NElo1, Alpha: s.test.Alpha, Beta: s.test.Beta, LLR: s.llr,
		Lower: lo, Upper: hi, Pairs: s.penta.Pairs(), Penta: [5]int(s.penta), Verdict: s.decision.String()}
	if s.err != nil {
		j.Error = s.err.Error()
	}
	return j
}

// Publish puts the test's bounds on m and, from now on, its LLR and pairs after
// every deal, labelled with the tested bot.
func (s *Run) Publish(m *metrics.Metrics, bot string) {
	s.m, s.bot = m, bot
	lo, hi := s.test.Bounds()
	m.SPRTBound.WithLabelValues(bot, "lower").Set(lo)
	m.SPRTBound.WithLabelValues(bot, "upper").Set(hi)
	m.SPRTLLR.WithLabelValues(bot).Set(0)
	m.SPRTPairs.WithLabelValues(bot)
}

// Write prints the test's outcome for the tested bot first, with the Elo estimates
// when the deal pairs differ.
func (s *Run) Write(w io.Writer, first string) error {
	if s.err != nil {
		return fmt.Errorf("sprt: %w", s.err)
	}
	lo, hi := s.test.Bounds()
	sum := s.penta.Summary()
	fmt.Fprintf(w, "SPRT of %s, nElo [%g, %g], alpha %g, beta %g: LLR %.2f (bounds %.2f, %.2f) after %d deal pairs %v: %s\n",
		first, s.test.NElo0, s.test.NElo1, s.test.Alpha, s.test.Beta, s.llr, lo, hi, s.penta.Pairs(), [5]int(s.penta), s.decision)
	bins := 0
	for _, n := range s.penta {
		if n > 0 {
			bins++
		}
	}
	if bins < 2 { // no spread: the estimates below would be noise or infinite
		fmt.Fprintln(w, "  every deal pair scored the same: no spread to estimate Elo from")
		return nil
	}
	fmt.Fprintf(w, "  Elo %+.1f ± %.1f, nElo %+.1f ± %.1f, LOS %.1f%%\n", sum.Elo, sum.Elo95, sum.NElo, sum.NElo95, 100*sum.LOS)
	return nil
}
