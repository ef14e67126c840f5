package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/ladder"
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
// carry the worker's registered ID and its ladder's name, say the process is a worker,
// and show its time bank and every sandbox layer of its bots, as a match's do.
func TestWorkerMetricsCarryTheWorkerLabel(t *testing.T) {
	var body string
	player := &ladder.ArenaPlayer{Clock: arena.DefaultClock(), Sandbox: sandbox.Config{Level: sandbox.Auto}}
	layers, err := player.Sandbox.Layers()
	require.NoError(t, err)
	require.NotEmpty(t, layers)
	app := &cli.App{Flags: append(metricsFlags(""), ladderNameFlag(), dbFlag()), Action: func(c *cli.Context) error {
		s, err := serveWorkerMetrics(c, 42, player)
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
	require.NoError(t, app.Run([]string{"arena", "--metrics-addr", "127.0.0.1:0", "--db", "postgres://arena@db.example/club?sslmode=disable"}))
	assert.Contains(t, body, `arena_matches_started_total{game="ivanhoe",ladder="club",worker="42"} 1`)
	assert.Contains(t, body, `arena_bot_process_starts_total{bot="random",ladder="club",worker="42"} 1`, "bots are labelled by name, as a ladder's")
	assert.Contains(t, body, `arena_clock_bank_seconds{ladder="club",worker="42"} 60`, "the default bank")
	for _, l := range layers {
		v := 0
		if l.Active {
			v = 1
		}
		assert.Contains(t, body, fmt.Sprintf(`arena_sandbox_layer_active{ladder="club",layer=%q,worker="42"} %d`, l.Layer, v))
	}
	assert.Regexp(t, `arena_build_info\{[^}]*ladder="club"[^}]*mode="worker"[^}]*worker="42"\} 1`, body)

	var none *metricsServer
	assert.Nil(t, none.ladderObserver(), "no metrics, no observer")
}

// TestLadderNameDefaultsToTheDatabase: a ladder is named by --ladder-name, else by its
// database: an SQLite file's name without the extension, a PostgreSQL URL's database.
func TestLadderNameDefaultsToTheDatabase(t *testing.T) {
	for args, want := range map[string]string{
		"--db /srv/arena/club.db": "club",
		"--db /srv/arena/kk":      "kk",
		"--db postgres://arena:secret@db:5432/ladder2?sslmode=disable": "ladder2",
		"--db /srv/arena/club.db --ladder-name public":                 "public",
	} {
		got := ""
		app := &cli.App{Flags: []cli.Flag{ladderNameFlag(), dbFlag()}, Action: func(c *cli.Context) error { got = ladderName(c); return nil }}
		require.NoError(t, app.Run(append([]string{"arena"}, strings.Fields(args)...)))
		assert.Equal(t, want, got, args)
	}
}
