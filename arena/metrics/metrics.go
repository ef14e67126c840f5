// Package metrics exports what an operator watching the arena or a ladder needs, on a
// Prometheus registry of its own (never the global one, so tests and embedders get
// exactly these series). Labels are bounded: game, bot, ending, outcome; never a match
// id, seed or file name.
package metrics

import (
	"errors"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Version is the arena's version as build_info reports it; the linker may set it.
var Version = "dev"

// Metrics holds every series the arena exports.
type Metrics struct {
	Registry *prometheus.Registry

	MatchesStarted  *prometheus.CounterVec   // game
	MatchesFinished *prometheus.CounterVec   // game, outcome
	MatchDuration   *prometheus.HistogramVec // game
	MatchesInFlight *prometheus.GaugeVec     // game
	Decisions       *prometheus.CounterVec   // game, bot
	DecisionLatency *prometheus.HistogramVec // bot
	Endings         *prometheus.CounterVec   // bot, ending
	BotStarts       *prometheus.CounterVec   // bot
	BotRestarts     *prometheus.CounterVec   // bot
	BotProcesses    *prometheus.GaugeVec     // bot
	Rating          *prometheus.GaugeVec     // game, bot, kind
	RatingLow       *prometheus.GaugeVec     // game, bot
	RatingHigh      *prometheus.GaugeVec     // game, bot
	GamesRecorded   *prometheus.CounterVec   // game, bot
	ScoreRecorded   *prometheus.CounterVec   // game, bot
}

// New builds the metrics on a fresh registry, with the Go runtime and process
// collectors and build_info.
func New() *Metrics {
	r := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { r.MustRegister(c) }
	m := &Metrics{
		Registry: r,
		MatchesStarted: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_matches_started_total",
			Help: "Matches (one deal in one seat rotation) the arena started."}, []string{"game"}),
		MatchesFinished: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_matches_finished_total",
			Help: "Matches that ended, by outcome: complete (every seat played to the end), forfeit (a seat forfeited and the fallback finished for it) or aborted (the run stopped first)."},
			[]string{"game", "outcome"}),
		MatchDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_match_duration_seconds",
			Help:    "Wall-clock time from the start to the end of a match.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 14)}, []string{"game"}),
		MatchesInFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_matches_in_flight",
			Help: "Matches being played right now."}, []string{"game"}),
		Decisions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_decisions_total",
			Help: "Decisions asked of bots and answered in time with a legal choice or not (every request counts)."},
			[]string{"game", "bot"}),
		DecisionLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_decision_latency_seconds",
			Help:    "Time from sending a decision to a bot to its answer, as charged to the bot's clock.",
			Buckets: prometheus.ExponentialBuckets(0.00005, 2.5, 16)}, []string{"bot"}),
		Endings: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_seat_endings_total",
			Help: "How bots' seats ended their matches: ok, timeout, crash, illegal, protocol_error."},
			[]string{"bot", "ending"}),
		BotStarts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_bot_process_starts_total",
			Help: "Bot processes started, first starts and restarts alike."}, []string{"bot"}),
		BotRestarts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_bot_process_restarts_total",
			Help: "Bot processes started again after a crash."}, []string{"bot"}),
		BotProcesses: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_bot_processes",
			Help: "Bot processes alive now."}, []string{"bot"}),
		Rating: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_ladder_rating_elo",
			Help: "A ladder bot's rating in Elo: kind live (updated after every result) or official (maximum-likelihood fit)."},
			[]string{"game", "bot", "kind"}),
		RatingLow: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_ladder_rating_elo_lower",
			Help: "Lower end of the 95% interval of a ladder bot's official Elo."}, []string{"game", "bot"}),
		RatingHigh: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_ladder_rating_elo_upper",
			Help: "Upper end of the 95% interval of a ladder bot's official Elo."}, []string{"game", "bot"}),
		GamesRecorded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_ladder_games_recorded_total",
			Help: "Games a bot played that the ladder recorded."}, []string{"game", "bot"}),
		ScoreRecorded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_ladder_score_total",
			Help: "Sum of a bot's recorded game scores (1 per opponent finished ahead of, divided by opponents; ties half): divided by games it is the score rate."},
			[]string{"game", "bot"}),
	}
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_build_info",
		Help: "Always 1; the labels say which arena build is running."}, []string{"version", "goversion"})
	build.WithLabelValues(Version, runtime.Version()).Set(1)
	for _, c := range []prometheus.Collector{m.MatchesStarted, m.MatchesFinished, m.MatchDuration, m.MatchesInFlight,
		m.Decisions, m.DecisionLatency, m.Endings, m.BotStarts, m.BotRestarts, m.BotProcesses, m.Rating,
		m.RatingLow, m.RatingHigh, m.GamesRecorded, m.ScoreRecorded, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		f(c)
	}
	return m
}

// Server serves /metrics of m until Close.
type Server struct {
	srv  *http.Server
	Addr string
	done chan struct{}
}

// Serve listens on addr (host:port; port 0 picks one) and serves /metrics.
func (m *Metrics) Serve(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry}))
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
