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

// serveMetrics starts serving when --metrics-addr is set and hooks the run to it.
func serveMetrics(c *cli.Context, cfg *arena.Config) (*metricsServer, error) {
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
	cfg.Observer = m.Observer()
	return &metricsServer{srv: srv, m: m}, nil
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
