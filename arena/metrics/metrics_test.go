package metrics

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMetricsLint runs client_golang's linter (the checks of promtool check metrics) on
// every series the arena exports, each with a sample so that it is exposed.
func TestMetricsLint(t *testing.T) {
	m := New(ModeMatch)
	touch(m)
	problems, err := testutil.GatherAndLint(m.Registry)
	require.NoError(t, err)
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "go_") || strings.HasPrefix(p.Metric, "process_") {
			continue // the runtime collectors are client_golang's own
		}
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// touch gives every labelled series one sample.
func touch(m *Metrics) {
	m.MatchesStarted.WithLabelValues("ivanhoe").Inc()
	m.MatchesFinished.WithLabelValues("ivanhoe", "complete").Inc()
	m.MatchDuration.WithLabelValues("ivanhoe").Observe(0.5)
	m.MatchesInFlight.WithLabelValues("ivanhoe").Set(1)
	m.Decisions.WithLabelValues("ivanhoe", "random").Inc()
	m.DecisionLatency.WithLabelValues("ivanhoe", "random").Observe(0.0001)
	m.BankUsed.WithLabelValues("ivanhoe", "random").Observe(0.01)
	m.SetBank(time.Minute)
	m.SandboxLayer.WithLabelValues("landlock-fs").Set(1)
	m.RunsStopped.WithLabelValues(StopDone).Inc()
	m.Disqualified.WithLabelValues("random").Inc()
	m.SPRTLLR.WithLabelValues("random").Set(1.5)
	m.SPRTBound.WithLabelValues("random", "upper").Set(2.9)
	m.SPRTPairs.WithLabelValues("random").Inc()
	m.Endings.WithLabelValues("random", "ok").Inc()
	m.BotStarts.WithLabelValues("random").Inc()
	m.BotRestarts.WithLabelValues("random").Inc()
	m.BotProcesses.WithLabelValues("random").Set(1)
	m.LiveRating.WithLabelValues("ivanhoe", "random", "1").Set(0)
}

func TestServeExposesTheRegistryOnly(t *testing.T) {
	m := New(ModeMatch)
	touch(m)
	s, err := m.Serve("127.0.0.1:0")
	require.NoError(t, err)
	defer s.Close()
	resp, err := http.Get("http://" + s.Addr + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(body), `arena_matches_started_total{game="ivanhoe"} 1`)
	assert.Contains(t, string(body), `arena_build_info{`)
	assert.Contains(t, string(body), `arena_decision_latency_seconds_bucket{bot="random",game="ivanhoe"`)
	assert.Contains(t, string(body), `arena_build_info{goversion=`)
	assert.Contains(t, string(body), `mode="match"`)
	require.NoError(t, s.Close())
	_, err = http.Get("http://" + s.Addr + "/metrics")
	assert.Error(t, err, "closed")
}

// TestLatencyBucketsResolveTenMicrosecondsToAMinute: the first bound is 10 µs, the
// last 60 s, and no two neighbours are more than a factor 1.6 apart, so that a quantile
// read from the buckets is within about 25% anywhere in that range.
func TestLatencyBucketsResolveTenMicrosecondsToAMinute(t *testing.T) {
	b := LatencyBuckets()
	assert.InDelta(t, 10e-6, b[0], 1e-12)
	assert.InDelta(t, 60, b[len(b)-1], 1e-9)
	for i := 1; i < len(b); i++ {
		assert.LessOrEqual(t, b[i]/b[i-1], 1.6, "bounds %g and %g", b[i-1], b[i])
	}
}

// TestBuildInfoNamesARealBuild: a test binary has no module version, but build_info
// must still carry a version, a revision label and the mode it was given.
func TestBuildInfoNamesARealBuild(t *testing.T) {
	m := New(ModeLadder)
	fams, err := m.Registry.Gather()
	require.NoError(t, err)
	for _, f := range fams {
		if f.GetName() != "arena_build_info" {
			continue
		}
		labels := map[string]string{}
		for _, l := range f.GetMetric()[0].GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		assert.NotEmpty(t, labels["version"])
		assert.NotEqual(t, "dev", labels["version"])
		assert.NotEmpty(t, labels["revision"])
		assert.Equal(t, "ladder", labels["mode"])
		return
	}
	t.Fatal("no arena_build_info")
}

// TestLabelledSeriesCarryTheWorker: every series of a worker's metrics, the runner's,
// the build's and the process's alike, carries its worker label, so that two workers'
// series never merge.
func TestLabelledSeriesCarryTheWorker(t *testing.T) {
	m := NewLabelled(ModeWorker, prometheus.Labels{"worker": "7"})
	touch(m)
	families, err := m.Registry.Gather()
	require.NoError(t, err)
	require.NotEmpty(t, families)
	seen := map[string]bool{}
	for _, f := range families {
		for _, s := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range s.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			assert.Equal(t, "7", labels["worker"], "%s %v", f.GetName(), labels)
		}
		seen[f.GetName()] = true
	}
	for _, name := range []string{"arena_matches_started_total", "arena_build_info", "process_cpu_seconds_total", "go_goroutines"} {
		assert.True(t, seen[name], name)
	}
	require.NoError(t, testutil.GatherAndCompare(m.Registry, strings.NewReader(`
# HELP arena_matches_started_total Matches (one deal in one seat rotation) the arena started.
# TYPE arena_matches_started_total counter
arena_matches_started_total{game="ivanhoe",worker="7"} 1
`), "arena_matches_started_total"))
}
