package dashboards

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// latencyFromEitherHistogram: the decision-latency panel answers right whichever way
// Prometheus stored the histogram. The native server holds none of its classic buckets
// (so its panel answered from the native histogram) and the classic server no native
// one. Over a window as long as the test each bot's median and 99th percentile from
// either are the match's own (its report's p50 and p99, from every decision's time)
// within the buckets' widths: an estimate lies in the bucket that holds the true
// quantile, the classic bounds a factor of 1.58 apart and the native ones 1.09 (the
// largest schema whose factor is at most the 1.1 asked for). The margins, 1.65 and
// 1.12, add the report's rounding to the microsecond and the decisions before
// Prometheus's first scrape of the run, which no rate counts.
func latencyFromEitherHistogram(t *testing.T, classic, native string, ds []Dashboard, addr string, rep matchReport, at time.Time, span time.Duration) {
	sel := fmt.Sprintf("{instance=%q}", addr)
	for api, want := range map[string][2]float64{classic: {1, 0}, native: {0, 1}} {
		got := [2]float64{}
		for i, expr := range []string{`count(arena_decision_latency_seconds_bucket` + sel + `) > 0`, `count(arena_decision_latency_seconds` + sel + `) > 0`} {
			n, err := query(api, expr, at)
			require.NoError(t, err)
			got[i] = float64(n)
		}
		assert.Equal(t, want, got, "%s stores the decision latency as classic buckets (1, 0) or as a native histogram (0, 1)", api)
	}
	values := map[string]string{"job": ".*", "instance": addr, "bot": ".*", "__rate_interval": fmt.Sprintf("%ds", int(span.Seconds())+1)}
	for _, panel := range []struct {
		title string
		want  func(i int) float64
	}{{"Decision latency p50", func(i int) float64 { return rep.Bots[i].P50Ms / 1000 }}, {"Decision latency p99", func(i int) float64 { return rep.Bots[i].P99Ms / 1000 }}} {
		expr := Substitute(panelExpr(t, ds, panel.title, 0), values)
		for _, server := range []struct {
			name, api string
			margin    float64
		}{{"classic", classic, 1.65}, {"native", native, 1.12}} {
			quantiles := vector(t, server.api, expr, at, "bot")
			for i, b := range rep.Bots {
				got, want := quantiles[b.Name], panel.want(i)
				t.Logf("%s: %s %s panel %.3g s, the match's %.3g s", panel.title, b.Name, server.name, got, want)
				require.True(t, got > 0 && want > 0, "%s: a quantile from the panel (%v) and the report (%v)", b.Name, got, want)
				assert.Less(t, math.Max(got/want, want/got), server.margin, "%s, %s, %s: the panel's quantile is the match's within the buckets' widths", panel.title, b.Name, server.name)
			}
		}
		verify(t, ds, panel.title)
	}
}
