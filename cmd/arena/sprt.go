package main

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

// sprtRun is the sequential test of `arena match --sprt`: the first bot against the
// second, one pentanomial count per deal (both seatings), stopping the run when the
// test decides.
type sprtRun struct {
	// m, when set, holds the metrics' SPRT series of the tested bot.
	m        *metrics.Metrics
	bot      string
	test     rating.SPRT
	penta    rating.Pentanomial
	llr      float64
	decision rating.Decision
	err      error
}

// parseSPRT reads "elo0,elo1[,alpha,beta]": normalized-Elo bounds and error rates
// (0.05 each by default), as fishtest states them.
func parseSPRT(spec string, bots int) (*sprtRun, error) {
	parts := strings.Split(spec, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return nil, fmt.Errorf("--sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", spec)
	}
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("--sprt %q: %q is not a number", spec, p)
		}
		v[i] = x
	}
	for i, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("--sprt %q: %q is not a finite number", spec, parts[i])
		}
	}
	t := rating.SPRT{NElo0: v[0], NElo1: v[1], Alpha: 0.05, Beta: 0.05}
	if len(v) == 4 {
		t.Alpha, t.Beta = v[2], v[3]
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("--sprt %q: %w", spec, err)
	}
	if bots != 2 {
		return nil, fmt.Errorf("--sprt tests one bot against another: give two bots, not %d", bots)
	}
	return &sprtRun{test: t}, nil
}

// stop is arena.Config.Stop: count the newest deal and say whether the test decided.
func (s *sprtRun) stop(deal arena.DealBlock) bool {
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

// sprtJSON is the test's state in `arena match --json`.
type sprtJSON struct {
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

func (s *sprtRun) json() *sprtJSON {
	if s == nil {
		return nil
	}
	lo, hi := s.test.Bounds()
	j := &sprtJSON{Elo0: s.test.NElo0, Elo1: s.test.NElo1, Alpha: s.test.Alpha, Beta: s.test.Beta, LLR: s.llr,
		Lower: lo, Upper: hi, Pairs: s.penta.Pairs(), Penta: [5]int(s.penta), Verdict: s.decision.String()}
	if s.err != nil {
		j.Error = s.err.Error()
	}
	return j
}

// publish puts the test's bounds on m and its LLR and pairs after every deal.
func (s *sprtRun) publish(m *metrics.Metrics, bot string) {
	s.m, s.bot = m, bot
	lo, hi := s.test.Bounds()
	m.SPRTBound.WithLabelValues(bot, "lower").Set(lo)
	m.SPRTBound.WithLabelValues(bot, "upper").Set(hi)
	m.SPRTLLR.WithLabelValues(bot).Set(0)
	m.SPRTPairs.WithLabelValues(bot)
}

func (s *sprtRun) write(w io.Writer, first string) error {
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
