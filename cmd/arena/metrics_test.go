package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena/metrics"
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
		{metrics.ModeLadder, []string{"--metrics", "--metrics-addr", "127.0.0.1:0"}, "127.0.0.1:0"},
		{metrics.ModeMatch, nil, ""},
	} {
		got := "unset"
		app := &cli.App{Flags: metricsFlags(""), Action: func(ctx *cli.Context) error { got = metricsAddr(ctx, c.mode); return nil }}
		require.NoError(t, app.Run(append([]string{"arena"}, c.args...)))
		assert.Equal(t, c.want, got, "%s %v", c.mode, c.args)
	}
}
