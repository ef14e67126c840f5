package main

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/protocol/sandbox"
)

// TestMetricsDefaultPorts: --metrics serves a match and a ladder on different ports
// (the ones dashboards/prometheus.yml scrapes), --metrics-addr wins, neither serves none.
func TestMetricsDefaultPorts(t *testing.T) {
	for _, c := range []struct {
		mode string
		args []string
		want string
	}{
		{metrics.ModeMatch, []string{"--metrics"}, "127.0.0.1:9464"},
		{metrics.ModeLadder, []string{"--metrics"}, "127.0.0.1:9465"},
		{metrics.ModeWorker, []string{"--metrics"}, "127.0.0.1:9466"},
		{metrics.ModeLadder, []string{"--metrics", "--metrics-addr", "127.0.0.1:0"}, "127.0.0.1:0"},
		{metrics.ModeMatch, nil, ""},
	} {
		got := "unset"
		app := &cli.App{Flags: metricsFlags(""), Action: func(ctx *cli.Context) error { got = metricsAddr(ctx, c.mode); return nil }}
		require.NoError(t, app.Run(append([]string{"arena"}, c.args...)))
		assert.Equal(t, c.want, got, "%s %v", c.mode, c.args)
	}
}

// TestWorkerMetricsCarryTheWorkerLabel: a worker's runner series, scraped over HTTP,
// carry the worker's registered ID and say the process is a worker.
func TestWorkerMetricsCarryTheWorkerLabel(t *testing.T) {
	var body string
	app := &cli.App{Flags: metricsFlags(""), Action: func(c *cli.Context) error {
		s, err := serveWorkerMetrics(c, 42, []sandbox.Status{{Layer: "seccomp", Active: true}})
		if err != nil {
			return err
		}
		defer s.srv.Close()
		s.ladderObserver().MatchStarted("ivanhoe")
		s.ladderObserver().BotStarted("random v3", false)
		resp, err := http.Get("http://" + s.srv.Addr + "/metrics")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		body = string(b)
		return err
	}}
	require.NoError(t, app.Run([]string{"arena", "--metrics-addr", "127.0.0.1:0"}))
	assert.Contains(t, body, `arena_matches_started_total{game="ivanhoe",worker="42"} 1`)
	assert.Contains(t, body, `arena_bot_process_starts_total{bot="random",worker="42"} 1`, "bots are labelled by name, as a ladder's")
	assert.Contains(t, body, `arena_sandbox_layer_active{layer="seccomp",worker="42"} 1`)
	assert.Regexp(t, `arena_build_info\{[^}]*mode="worker"[^}]*worker="42"\} 1`, body)

	var none *metricsServer
	assert.Nil(t, none.ladderObserver(), "no metrics, no observer")
}
