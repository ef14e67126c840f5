package dashboards

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// latencyFromEitherHistogram: the decision-latency panel answers alike whichever way
// Prometheus stored the histogram. The native server holds none of its classic buckets
// (so its panel answered from the native histogram) and the classic server no native
// one. Over the match's last seconds each bot's median from the two agrees within the
// buckets' widths: each estimate lies in the bucket that holds the true median, the
// classic bounds a factor of 1.58 apart and the native ones 1.09 (the largest schema
// whose factor is at most the 1.1 asked for), so the two differ by a factor of 1.72 at
// most; 1.8 leaves room for the decisions of the under a second by which the two
// servers' windows differ (their scrapes fall at different times).
func latencyFromEitherHistogram(t *testing.T, classic, native string, ds []Dashboard, addr string, runEnd, at time.Time) {
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
	medians := map[string]map[string]float64{}
	for _, api := range []string{classic, native} {
		// The window starts a millisecond before a scrape in the run, so that rate()
		// scales every bucket alike (it stretches a series to the window's start only
		// by that millisecond) and no bucket's count is cut at zero.
		from := scalar(t, api, `max(timestamp(arena_decisions_total`+sel+`))`, runEnd.Add(-5*time.Second))
		window := at.Sub(time.UnixMilli(int64(math.Round(from*1000)))) + time.Millisecond
		values := map[string]string{"job": ".*", "instance": addr, "bot": ".*", "__rate_interval": fmt.Sprintf("%dms", window.Milliseconds())}
		expr := Substitute(panelExpr(t, ds, "Decision latency p50", 0), values)
		medians[api] = vector(t, api, expr, at, "bot")
	}
	for _, bot := range []string{"heuristic", "random"} {
		c, n := medians[classic][bot], medians[native][bot]
		t.Logf("%s's median decision latency: classic %.3g s, native %.3g s", bot, c, n)
		require.True(t, c > 0 && n > 0, "%s: a median from both (classic %v, native %v)", bot, c, n)
		assert.Less(t, math.Max(c/n, n/c), 1.8, "%s: the medians agree within the buckets' widths", bot)
	}
}
