// Package metrics exports what an operator watching the arena or a ladder needs, on a
// Prometheus registry of its own (never the global one, so tests and embedders get
// exactly these series). Labels are bounded: game, bot, version, ending, outcome,
// layer, reason, mode; never a match id, seed or file name.
//
// These are the series of one process: counters start at 0 with it and go stale when
// it ends. What a ladder's database knows (totals, ratings) is exported as series read
// from the store, by package ladder/ladderprom.
package metrics

import (
	"errors"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Version is the arena's version as build_info reports it; the linker may set it
// (-ldflags "-X github.com/arena-games/arena/arena/metrics.Version=v1.2.3"), else it is
// the module version the go command recorded, "(devel)" for a build from a checkout.
var Version = ""

// Modes a process serving metrics runs in (build_info's mode label).
const (
	ModeMatch  = "match"
	ModeLadder = "ladder"
	// ModeWorker is a worker playing a shared ladder's blocks, one of many.
	ModeWorker = "worker"
)

// LatencyBuckets resolve 10 µs to 60 s: a factor of 1.58 between bounds (under 25%
// relative error at any quantile), 35 bounds, plus a native histogram
// (factor 1.1) for a Prometheus that scrapes them. Decisions of built-in bots take 10-100 µs
// on the test machine and the default decision clock is 1 s, a bank 60 s.
var LatencyBuckets = prometheus.ExponentialBucketsRange(10e-6, 60, 35)

// Metrics holds every series the arena exports.
type Metrics struct {
	Registry *prometheus.Registry

	MatchesStarted  *prometheus.CounterVec   // game
	MatchesFinished *prometheus.CounterVec   // game, outcome
	MatchDuration   *prometheus.HistogramVec // game
	MatchesInFlight *prometheus.GaugeVec     // game
	Decisions       *prometheus.CounterVec   // game, bot
	DecisionLatency *prometheus.HistogramVec // game, bot
	BankUsed        *prometheus.HistogramVec // game, bot
	Bank            prometheus.Gauge
	Endings         *prometheus.CounterVec // bot, ending
	BotStarts       *prometheus.CounterVec // bot
	BotRestarts     *prometheus.CounterVec // bot
	BotProcesses    *prometheus.GaugeVec   // bot
	SandboxLayer    *prometheus.GaugeVec   // layer
	RunsStopped     *prometheus.CounterVec // reason
	Disqualified    *prometheus.CounterVec // bot
	SPRTLLR         *prometheus.GaugeVec   // bot
	SPRTBound       *prometheus.GaugeVec   // bot, bound
	SPRTPairs       *prometheus.CounterVec // bot
	// RunFinished is 1 once the run ended without a fault (StopDone, StopSPRT,
	// StopInterrupted), so that its target going away after is no outage.
	RunFinished prometheus.Gauge
	// LiveRating is the ladder's live Elo after each game this process recorded.
	LiveRating *prometheus.GaugeVec // game, bot, version
	// GamesRecorded counts the games this process recorded into a ladder; the
	// ladder's totals are the store's counters (arena_ladder_bot_games_total).
	GamesRecorded *prometheus.CounterVec // game, bot, version

	bank float64 // seconds, for BankUsed
}

// SetBank records the time bank of a seat (arena.Clock.Bank) for the bank-use series.
func (m *Metrics) SetBank(bank time.Duration) {
	m.bank = bank.Seconds()
	m.Bank.Set(m.bank)
}

// Stop reasons of a run (RunsStopped's reason label).
const (
	StopDone         = "done"         // every game was played, or the time or count limit was reached
	StopInterrupted  = "interrupted"  // Ctrl-C or SIGTERM
	StopSPRT         = "sprt"         // the sequential test decided
	StopDisqualified = "disqualified" // a bot forfeited too often
	StopRestartLimit = "restart_limit"
	StopError        = "error" // anything else: a store error, a changed bot file, a bad config
)

// New builds the metrics on a fresh registry, with the Go runtime and process
// collectors and build_info saying which build runs in which mode (ModeMatch,
// ModeLadder).
func New(mode string) *Metrics { return NewLabelled(mode, nil) }

// NewLabelled builds the metrics as New does, every series carrying labels too. The
// workers of a shared ladder label theirs worker="ID" (the ID the worker registered
// under), so that the series of many worker processes stay apart in one Prometheus
// and sum across them.
func NewLabelled(mode string, labels prometheus.Labels) *Metrics {
	r := prometheus.NewRegistry()
	reg := prometheus.WrapRegistererWith(labels, r)
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	gauge := func(name, help string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	}
	m := &Metrics{
		Registry:       r,
		MatchesStarted: counter("arena_matches_started_total", "Matches (one deal in one seat rotation) the arena started.", "game"),
		MatchesFinished: counter("arena_matches_finished_total",
			"Matches that ended, by outcome: complete (every seat played to the end), forfeit (a seat forfeited and the fallback finished for it) or aborted (the run stopped first).",
			"game", "outcome"),
		MatchDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_match_duration_seconds",
			Help:    "Wall-clock time from the start to the end of a match.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 14)}, []string{"game"}),
		MatchesInFlight: gauge("arena_matches_in_flight", "Matches being played right now.", "game"),
		Decisions: counter("arena_decisions_total",
			"Decisions asked of bots and answered in time with a legal choice or not (every request counts).", "game", "bot"),
		DecisionLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_decision_latency_seconds",
			Help:    "Time from sending a decision to a bot to its answer, as charged to the bot's clock.",
			Buckets: LatencyBuckets, NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 160,
			NativeHistogramMinResetDuration: time.Hour}, []string{"game", "bot"}),
		BankUsed: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_seat_bank_used_ratio",
			Help:    "Share of its time bank a seat spent on its decisions in one complete match (1: all of it).",
			Buckets: []float64{0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1}}, []string{"game", "bot"}),
		Bank: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arena_clock_bank_seconds",
			Help: "Time bank of a seat for a whole match, as configured."}),
		Endings: counter("arena_seat_endings_total",
			"How bots' seats ended their matches: ok, timeout, crash, illegal, protocol (a broken answer or stream).", "bot", "ending"),
		BotStarts:    counter("arena_bot_process_starts_total", "Bot processes started, first starts and restarts alike.", "bot"),
		BotRestarts:  counter("arena_bot_process_restarts_total", "Bot processes started again after a crash.", "bot"),
		BotProcesses: gauge("arena_bot_processes", "Bot processes alive now.", "bot"),
		SandboxLayer: gauge("arena_sandbox_layer_active",
			"1 for each sandbox layer that confines this process's bots, 0 for a layer the level asked for that this machine lacks.", "layer"),
		RunsStopped: counter("arena_runs_stopped_total",
			"Runs of this process that ended, by reason: done, interrupted, sprt, disqualified, restart_limit, error.", "reason"),
		Disqualified: counter("arena_bot_disqualified_total", "Times a bot was disqualified for forfeiting too large a share of its matches.", "bot"),
		SPRTLLR:      gauge("arena_sprt_llr", "The log-likelihood ratio of the live sequential test of arena match --sprt, after the last deal pair.", "bot"),
		SPRTBound: gauge("arena_sprt_bound",
			"The bounds of the LLR of arena match --sprt: the test accepts H1 at bound upper, H0 at bound lower.", "bot", "bound"),
		SPRTPairs: counter("arena_sprt_pairs_total", "Deal pairs the sequential test of arena match --sprt counted.", "bot"),
		RunFinished: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arena_run_finished",
			Help: "1 once this process's run ended without a fault (done, sprt, interrupted), else 0: the target going away after it is no outage."}),
		LiveRating: gauge("arena_ladder_live_elo",
			"A ladder bot's live Elo after the last game this process recorded (follows recent form; the official fit is arena_ladder_rating_elo).",
			"game", "bot", "version"),
		GamesRecorded: counter("arena_ladder_games_recorded_total",
			"Games a bot played that this process recorded into the ladder (the ladder's own totals: arena_ladder_bot_games_total).", "game", "bot", "version"),
	}
	mode = modeOr(mode)
	build := gauge("arena_build_info", "Always 1; the labels say which arena build is running and in which mode (match, ladder).",
		"version", "revision", "goversion", "mode")
	version, revision := buildVersion()
	build.WithLabelValues(version, revision, runtime.Version(), mode).Set(1)
	for _, c := range []prometheus.Collector{m.MatchesStarted, m.MatchesFinished, m.MatchDuration, m.MatchesInFlight,
		m.Decisions, m.DecisionLatency, m.BankUsed, m.Bank, m.Endings, m.BotStarts, m.BotRestarts, m.BotProcesses,
		m.SandboxLayer, m.RunsStopped, m.Disqualified, m.SPRTLLR, m.SPRTBound, m.SPRTPairs, m.RunFinished, m.LiveRating, m.GamesRecorded, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		reg.MustRegister(c)
	}
	for _, reason := range []string{StopDone, StopInterrupted, StopSPRT, StopDisqualified, StopRestartLimit, StopError} {
		m.RunsStopped.WithLabelValues(reason)
	}
	return m
}

func modeOr(mode string) string {
	if mode == "" {
		return "unknown"
	}
	return mode
}

// buildVersion is the version and VCS revision of this binary: Version when the linker
// set it, else what the go command recorded in the binary.
func buildVersion() (version, revision string) {
	version, revision = Version, "unknown"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return modeOr(version), revision
	}
	if version == "" {
		version = info.Main.Version
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && revision != "unknown" {
		revision += "-dirty"
	}
	return modeOr(version), revision
}

// MaxScrapes is how many scrapes of /metrics are answered at once; ScrapeTimeout how
// long one may take (below Prometheus's default scrape timeout of 10 s).
const (
	MaxScrapes    = 4
	ScrapeTimeout = 5 * time.Second
)

// Server serves /metrics of one or more registries until Close.
type Server struct {
	srv  *http.Server
	Addr string
	done chan struct{}
}

// Serve listens on addr (host:port; port 0 picks one) and serves /metrics: m's
// registry and any extra gatherers (a ladder's store series, say).
func (m *Metrics) Serve(addr string, extra ...prometheus.Gatherer) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	g := prometheus.Gatherers(append([]prometheus.Gatherer{m.Registry}, extra...))
	mux := http.NewServeMux()
	// Every collector answers from memory; the cap and the timeout keep a flood of
	// scrapes, or one stuck collector, from piling up goroutines (a scrape over the
	// cap or the timeout gets a 503).
	mux.Handle("/metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{Registry: m.Registry,
		MaxRequestsInFlight: MaxScrapes, Timeout: ScrapeTimeout}))
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, Addr: ln.Addr().String(), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the listener failed after start: nothing left to serve
		}
	}()
	return s, nil
}

// Close stops serving.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	return err
}
