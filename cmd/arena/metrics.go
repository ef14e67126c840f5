package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/metrics"
)

// metricsServer is the /metrics endpoint of one command, or nil when none was asked for.
type metricsServer struct {
	srv *metrics.Server
	m   *metrics.Metrics
}

// metricsFlags are the flags of every command that can serve metrics.
func metricsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "metrics-addr", Usage: "serve Prometheus metrics on host:port (e.g. 127.0.0.1:9464) during the run"},
		&cli.DurationFlag{Name: "metrics-linger", Usage: "keep serving metrics this long after the run, so a scrape sees the end of a short run"},
	}
}

// startMetrics serves /metrics when --metrics-addr is set; nil otherwise.
func startMetrics(c *cli.Context) (*metricsServer, error) {
	addr := c.String("metrics-addr")
	if addr == "" {
		return nil, nil
	}
	m := metrics.New()
	srv, err := m.Serve(addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %w", addr, err)
	}
	fmt.Fprintf(c.App.ErrWriter, "metrics on http://%s/metrics\n", srv.Addr)
	return &metricsServer{srv: srv, m: m}, nil
}

// serveMetrics starts serving when --metrics-addr is set and hooks the run to it.
func serveMetrics(c *cli.Context, cfg *arena.Config) (*metricsServer, error) {
	s, err := startMetrics(c)
	if s != nil {
		cfg.Observer = s.m.Observer()
	}
	return s, err
}

// linger keeps serving for d after the run (or until interrupted), then stops.
func (s *metricsServer) linger(ctx context.Context, d time.Duration, w io.Writer) {
	if s == nil {
		return
	}
	defer s.srv.Close()
	if d <= 0 || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(w, "serving metrics on http://%s/metrics for %s more (Ctrl-C to stop)\n", s.srv.Addr, d)
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}
