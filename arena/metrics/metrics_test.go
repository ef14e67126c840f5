package metrics

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMetricsLint runs client_golang's linter (the checks of promtool check metrics) on
// every series the arena exports, each with a sample so that it is exposed.
func TestMetricsLint(t *testing.T) {
	m := New()
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
	m.DecisionLatency.WithLabelValues("random").Observe(0.0001)
	m.Endings.WithLabelValues("random", "ok").Inc()
	m.BotStarts.WithLabelValues("random").Inc()
	m.BotRestarts.WithLabelValues("random").Inc()
	m.BotProcesses.WithLabelValues("random").Set(1)
	m.Rating.WithLabelValues("ivanhoe", "random", "live").Set(0)
	m.RatingLow.WithLabelValues("ivanhoe", "random").Set(-10)
	m.RatingHigh.WithLabelValues("ivanhoe", "random").Set(10)
	m.GamesRecorded.WithLabelValues("ivanhoe", "random").Inc()
	m.ScoreRecorded.WithLabelValues("ivanhoe", "random").Add(0.5)
}

func TestServeExposesTheRegistryOnly(t *testing.T) {
	m := New()
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
	assert.Contains(t, string(body), `arena_decision_latency_seconds_bucket{bot="random"`)
	require.NoError(t, s.Close())
	_, err = http.Get("http://" + s.Addr + "/metrics")
	assert.Error(t, err, "closed")
}
