package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/ladderprom"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol/sandbox"
)

// metricsServer is the /metrics endpoint of one command, or nil when none was asked for.
type metricsServer struct {
	srv *metrics.Server
	m   *metrics.Metrics
	reg prometheus.Registerer // m's registry, with the process's labels
	exp *ladderprom.Exporter  // a ladder's store series, or nil
	log hclog.Logger
}

// Default metrics ports, one per mode, so that a match and a ladder can be scraped side
// by side (dashboards/prometheus.yml has one job for each).
const (
	matchMetricsAddr  = "127.0.0.1:9464"
	ladderMetricsAddr = "127.0.0.1:9465"
	workerMetricsAddr = "127.0.0.1:9466"
)

// metricsFlags are the flags of every command that can serve metrics; addr is the
// mode's usual address, shown in the help.
func metricsFlags(addr string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "metrics-addr", Usage: "serve Prometheus metrics on host:port during the run"},
		&cli.BoolFlag{Name: "metrics", Usage: "serve Prometheus metrics on " + addr + ", where dashboards/prometheus.yml scrapes this mode"},
		&cli.DurationFlag{Name: "metrics-linger", Usage: "keep serving metrics this long after the run, so a scrape sees the end of a short run"},
	}
}

// ladderNameFlag names a ladder on its series (label ladder), so that the series of
// many ladders stay apart in one Prometheus.
func ladderNameFlag() cli.Flag {
	return &cli.StringFlag{Name: "ladder-name", DefaultText: "the database's name: its file's without the extension, or a postgres:// URL's database",
		Usage: "the ladder's name on its metrics (label ladder)"}
}

// ladderName is --ladder-name, else the name of the database --db names.
func ladderName(c *cli.Context) string {
	if n := c.String("ladder-name"); n != "" {
		return n
	}
	path, err := ladderPath(c)
	if err != nil {
		return "ladder"
	}
	if store.IsPostgresURL(path) {
		if u, err := url.Parse(path); err == nil && strings.Trim(u.Path, "/") != "" {
			return strings.Trim(u.Path, "/")
		}
		return "postgres"
	}
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// startMetrics serves /metrics of a process in mode (and of extra) when --metrics-addr
// is set; nil otherwise.
func startMetrics(c *cli.Context, mode string, extra ...prometheus.Gatherer) (*metricsServer, error) {
	return startLabelledMetrics(c, mode, nil, extra...)
}

// startLabelledMetrics is startMetrics with labels on every series of the process.
func startLabelledMetrics(c *cli.Context, mode string, labels prometheus.Labels, extra ...prometheus.Gatherer) (*metricsServer, error) {
	addr := metricsAddr(c, mode)
	if addr == "" {
		return nil, nil
	}
	m := metrics.NewLabelled(mode, labels)
	srv, err := m.Serve(addr, extra...)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %w", addr, err)
	}
	log := mustLogger(c)
	log.Info(fmt.Sprintf("metrics on http://%s/metrics", srv.Addr))
	return &metricsServer{srv: srv, m: m, reg: prometheus.WrapRegistererWith(labels, m.Registry), log: log}, nil
}

// metricsAddr is --metrics-addr, else the mode's default port with --metrics, else "".
func metricsAddr(c *cli.Context, mode string) string {
	if a := c.String("metrics-addr"); a != "" || !c.Bool("metrics") {
		return a
	}
	switch mode {
	case metrics.ModeLadder:
		return ladderMetricsAddr
	case metrics.ModeWorker:
		return workerMetricsAddr
	}
	return matchMetricsAddr
}

// serveWorkerMetrics serves the runner series of a worker of a shared ladder when
// --metrics-addr (or --metrics) is set; nil otherwise. Every series is labelled
// worker="ID", the ID the worker registered under (store.WorkerRegistry), which is
// also the worker label of the coordinator's per-worker series: a worker's games, as
// the database saw them, sit beside its own view of them. The bank and sandbox layer
// series are the player's. Hook the runner with s.ladderObserver().
func serveWorkerMetrics(c *cli.Context, worker int64, player *ladder.ArenaPlayer) (*metricsServer, error) {
	s, err := startLabelledMetrics(c, metrics.ModeWorker, prometheus.Labels{"worker": strconv.FormatInt(worker, 10), "ladder": ladderName(c)})
	s.describePlayer(player)
	return s, err
}

// watch exports what col reads (a connection pool's use, the replays' disk) beside
// the process's series, with its labels.
func (s *metricsServer) watch(col prometheus.Collector) {
	if s != nil {
		_ = s.reg.Register(col) // once each: a second of the same is refused, not a panic
	}
}

// instrumentHTTP counts the web service's answers on these metrics; without metrics
// it is h.
func (s *metricsServer) instrumentHTTP(h http.Handler) http.Handler {
	if s == nil {
		return h
	}
	return service.Instrument(h, s.reg)
}

// describePlayer sets the bank and sandbox layer series from a ladder's player, as a
// match sets them from its configuration.
func (s *metricsServer) describePlayer(p *ladder.ArenaPlayer) {
	if s == nil {
		return
	}
	s.m.SetBank(p.Clock.Bank)
	if layers, err := p.Layers(); err == nil {
		s.sandboxLayers(layers)
	}
}

// ladderObserver is the runner's observer of a ladder's games on these metrics (bot
// labels without versions, as every ladder process exports them); nil without metrics.
func (s *metricsServer) ladderObserver() arena.Observer {
	if s == nil {
		return nil
	}
	return ladderprom.Observer(s.m.Observer())
}

// serveMetrics starts serving when --metrics-addr is set and hooks the run to it.
func serveMetrics(c *cli.Context, cfg *arena.Config) (*metricsServer, error) {
	s, err := startMetrics(c, metrics.ModeMatch)
	if s != nil {
		cfg.Observer = s.m.Observer()
		s.m.SetBank(cfg.Clock.Bank)
		if layers, err := cfg.Sandbox.Layers(); err == nil {
			s.sandboxLayers(layers)
		}
	}
	return s, err
}

// sandboxLayers sets the layer series: 1 for each active layer, 0 for a missing one.
func (s *metricsServer) sandboxLayers(layers []sandbox.Status) {
	for _, l := range layers {
		v := 0.0
		if l.Active {
			v = 1
		}
		s.m.SandboxLayer.WithLabelValues(l.Layer).Set(v)
	}
}

// stopped counts why a run ended: reason is one of the metrics.Stop* values.
func (s *metricsServer) stopped(err error, interrupted, sprt bool) {
	if s == nil {
		return
	}
	reason := metrics.StopDone
	var dq *arena.ErrDisqualified
	var rl *arena.ErrRestartLimit
	switch {
	case interrupted:
		reason = metrics.StopInterrupted
	case errors.As(err, &dq):
		reason = metrics.StopDisqualified
		s.m.Disqualified.WithLabelValues(dq.Bot).Inc()
	case errors.As(err, &rl):
		reason = metrics.StopRestartLimit
	case err != nil:
		reason = metrics.StopError
	case sprt:
		reason = metrics.StopSPRT
	}
	s.m.RunsStopped.WithLabelValues(reason).Inc()
	if reason == metrics.StopDone || reason == metrics.StopSPRT || reason == metrics.StopInterrupted {
		s.m.RunFinished.Set(1)
	}
}

// linger keeps serving for d after the run, so that a scrape sees how it ended, then
// stops. A run stopped by Ctrl-C or SIGTERM lingers too (its end, interrupted, and the
// matches it aborted are what an operator looks for): the next signal ends the linger,
// as the first one does after a run that ended on its own (ctx). A signal within
// sameSignal of the linger's start is the one GNU timeout sends twice.
func (s *metricsServer) linger(ctx context.Context, d time.Duration) {
	if s == nil {
		return
	}
	defer s.srv.Close()
	if d <= 0 {
		return
	}
	if s.exp != nil { // the final values: the last games, which Follow, stopped with the run, missed, in the totals and the ratings
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		s.refit(rctx)
		cancel()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done, again := ctx.Done(), ""
	if ctx.Err() != nil { // stopped already: only the next signal ends the linger
		done, again = nil, " again"
	}
	s.log.Info(fmt.Sprintf("serving metrics on http://%s/metrics for %s more (Ctrl-C%s to stop)", s.srv.Addr, d, again))
	began := time.Now()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			return
		case <-done:
			return
		case <-sigs:
			if time.Since(began) >= sameSignal {
				return
			}
		}
	}
}

// serveLadderMetrics serves a ladder process's metrics when --metrics-addr is set: its
// own series and the store's (running aggregates read from the database at start and
// caught up every second, so a restart changes no total and a scrape reads nothing),
// refitting the official ratings at once and every --refresh. It
// returns the store to use, wrapped so that its errors are counted.
func serveLadderMetrics(ctx context.Context, c *cli.Context, st store.Store, game string) (*metricsServer, store.Store, error) {
	if metricsAddr(c, metrics.ModeLadder) == "" {
		return nil, st, nil
	}
	name := ladderName(c)
	exp, st := ladderprom.New(st, game, name)
	s, err := startLabelledMetrics(c, metrics.ModeLadder, prometheus.Labels{"ladder": name}, exp.Gatherer())
	if err != nil {
		return nil, st, err
	}
	s.exp = exp
	exp.OnRetired = s.forget
	go exp.Follow(ctx)
	go func() {
		s.refit(ctx)
		repeat(ctx, c.Duration("refresh"), func() { s.refit(ctx) })
	}()
	return s, st, nil
}

// forget deletes the series of a retired bot version this process keeps.
func (s *metricsServer) forget(b store.Bot) {
	v := strconv.Itoa(b.Version)
	s.m.GamesRecorded.DeletePartialMatch(prometheus.Labels{"bot": b.Name, "version": v})
	s.m.LiveRating.DeletePartialMatch(prometheus.Labels{"bot": b.Name, "version": v})
}

// repeat calls f every d (never when d <= 0) until ctx ends.
func repeat(ctx context.Context, d time.Duration, f func()) {
	if d <= 0 {
		return
	}
	tick := time.NewTicker(d)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			f()
		case <-ctx.Done():
			return
		}
	}
}

// refit refreshes the official ratings on the metrics; a failure is exported
// (arena_ladder_refit_failed, arena_ladder_refits_total) and logged, not fatal.
func (s *metricsServer) refit(ctx context.Context) {
	if s == nil || s.exp == nil {
		return
	}
	if err := s.exp.Refit(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("refit of the official ratings failed", "err", err)
	}
}
