// Package ladderprom exports what a ladder's database knows as Prometheus series, so
// that a dashboard shows the ladder's totals and ratings whichever process serves
// them and however often it restarted: games, forfeits and score per game and bot
// version, the time of the last recorded game, which bots are active, the official
// and live ratings with their interval, and when the ratings were last refitted, how
// long that took and whether it failed. Over a store shared by many machines
// (store.FleetReader) also the work queue's depth and the age of its oldest block, and
// the workers: how many are alive, which went silent, and the games per second of each.
//
// The totals are counters kept as running aggregates (ladder/tally): read once from
// the store (any store, not only SQLite) when the exporter starts following it
// (Exporter.Follow), then caught up every second or so by reading only the games
// recorded since, whichever process recorded them. A scrape answers from memory and
// never touches the database: a slow or locked database makes the series older (see
// arena_ladder_store_read_timestamp_seconds), never a scrape slower. The ratings come
// from the last refit (Exporter.Refit), which the owner of the ladder runs at start and
// every so often, on the same aggregates. A store wrapped by Count counts the errors of
// every store call as arena_ladder_store_errors_total.
//
// Every series carries the ladder's name (label ladder) and the store's series the game
// too, so that one Prometheus keeps many ladders of many games apart. Only versions
// that play are listed: a retired version's series end with its retirement, so that a
// ladder's series do not grow with every version ever submitted.
package ladderprom

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// FollowEvery is how often Follow catches the aggregates and the fleet up with the
// database: a scrape sees games at most this much later than they were recorded.
const FollowEvery = time.Second

// Exporter is a prometheus.Collector over a ladder's store.
type Exporter struct {
	st   store.Store
	game string
	// OnRetired, when set, is called once for each version this exporter saw retired,
	// so that the owner can delete the version's series of its own.
	OnRetired func(b store.Bot)
	retired   map[int64]bool
	registry  *prometheus.Registry
	errs      *prometheus.CounterVec // op
	refits    *prometheus.CounterVec // outcome

	agg *tally.Ladder

	mu    sync.Mutex
	fit   fitResult
	fleet fleetState
}

type fitResult struct {
	done   bool
	at     time.Time
	took   time.Duration
	err    error
	tables []ladder.Table
}

// New exports st's ladder of game ("" for every game) on a registry of its own, every
// series labelled ladder=name, and returns st wrapped so that its errors are counted
// there too: the ladder's owner should use the wrapped store for everything.
func New(st store.Store, game, name string) (*Exporter, store.Store) {
	e := &Exporter{game: game, registry: prometheus.NewRegistry(), retired: map[int64]bool{},
		errs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_ladder_store_errors_total",
			Help: "Calls to the ladder's store that failed, by operation (record, read, new_block...), since this process started."}, []string{"op"}),
		refits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_ladder_refits_total",
			Help: "Refits of the official ratings this process ran, by outcome (ok, error)."}, []string{"outcome"}),
	}
	for _, op := range ops {
		e.errs.WithLabelValues(op)
	}
	e.refits.WithLabelValues("ok")
	e.refits.WithLabelValues("error")
	e.st = counted{Store: st, errs: e.errs}
	e.agg = tally.New(e.st, game)
	e.fleet.src, _ = st.(store.FleetReader)
	prometheus.WrapRegistererWith(prometheus.Labels{"ladder": name}, e.registry).MustRegister(e, e.errs, e.refits)
	return e, e.st
}

// Gatherer is the registry to serve beside the process's own.
func (e *Exporter) Gatherer() prometheus.Gatherer { return e.registry }

// Tally is the running aggregates the series come from, for the owner to read too.
func (e *Exporter) Tally() *tally.Ladder { return e.agg }

// Follow keeps the series up with the database until ctx ends: the first pass reads
// the whole history, each later one, every FollowEvery, what was recorded since and
// the fleet. A failed read is counted (arena_ladder_store_errors_total) and retried.
func (e *Exporter) Follow(ctx context.Context) {
	t := time.NewTicker(FollowEvery)
	defer t.Stop()
	for {
		_ = e.Refresh(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh catches the aggregates and the fleet up with the database now.
func (e *Exporter) Refresh(ctx context.Context) error {
	err := e.agg.Refresh(ctx)
	e.readFleet(ctx)
	return err
}

// Refit catches the aggregates up and computes the standings from them (official fit
// with bootstrap intervals), keeping them for the rating series; its time, duration
// and error are exported. Its cost grows with the ladder's blocks, not with reads:
// the fit runs on a copy of the aggregates, and scrapes meanwhile go on.
func (e *Exporter) Refit(ctx context.Context) error {
	start := time.Now()
	err := e.agg.Refresh(ctx)
	var tables []ladder.Table
	if err == nil {
		tables, err = ladder.StandingsOf(e.agg, ladder.StandingsOptions{Retired: true})
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	e.refits.WithLabelValues(outcome).Inc()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fit.done, e.fit.at, e.fit.took, e.fit.err = true, time.Now(), time.Since(start), err
	if err == nil {
		e.fit.tables = tables
	}
	return err
}

var (
	gameBot  = []string{"game", "bot", "version"}
	gameOnly = []string{"game"}

	descGames = prometheus.NewDesc("arena_ladder_bot_games_total",
		"Games a bot version that plays played on the ladder, read from the ladder's database.", gameBot, nil)
	descForfeits = prometheus.NewDesc("arena_ladder_bot_forfeits_total",
		"Recorded games in which a bot version that plays forfeited its seat (timeout, crash, illegal, protocol), read from the database.", gameBot, nil)
	descScore = prometheus.NewDesc("arena_ladder_bot_score_total",
		"Sum of a bot version's recorded game scores (fraction of opponents finished ahead of, ties half): divided by arena_ladder_bot_games_total it is the score rate.",
		gameBot, nil)
	descMatches = prometheus.NewDesc("arena_ladder_games_total",
		"Games recorded on the ladder, retired versions' too, read from the database.", gameOnly, nil)
	descLast = prometheus.NewDesc("arena_ladder_last_game_timestamp_seconds",
		"When the ladder's last recorded game ended (Unix time), read from the database.", gameOnly, nil)
	descSuspended = prometheus.NewDesc("arena_ladder_bot_suspended",
		"1 for a bot version suspended for timing out or crashing too often (arena bot reinstate lifts it), 0 for one that plays; retired versions are not listed.",
		gameBot, nil)
	descActiveBots = prometheus.NewDesc("arena_ladder_active_bots",
		"Bot versions that play on the ladder (neither retired nor suspended).", gameOnly, nil)
	descSuspendedBots = prometheus.NewDesc("arena_ladder_suspended_bots",
		"Bot versions suspended for timing out or crashing too often (arena bot reinstate lifts it).", gameOnly, nil)
	descReadTook = prometheus.NewDesc("arena_ladder_store_read_seconds",
		"How long the last read of the ladder's games for these series took (at start the whole history, then the games recorded since the read before).", gameOnly, nil)
	descReadAt = prometheus.NewDesc("arena_ladder_store_read_timestamp_seconds",
		"When the ladder's games were last read for these series (Unix time): scrapes answer from memory, so a stalled database shows here, not as a slow scrape.", gameOnly, nil)
	descElo = prometheus.NewDesc("arena_ladder_rating_elo",
		"A ladder bot version's Elo at the last refit: kind official (maximum-likelihood fit, random = 0) or live (pairwise updates in recorded order).",
		[]string{"game", "bot", "version", "kind"}, nil)
	descLow = prometheus.NewDesc("arena_ladder_rating_elo_lower",
		"Lower end of the 95% interval of a bot version's official Elo at the last refit.", gameBot, nil)
	descHigh = prometheus.NewDesc("arena_ladder_rating_elo_upper",
		"Upper end of the 95% interval of a bot version's official Elo at the last refit.", gameBot, nil)
	descRefitAt = prometheus.NewDesc("arena_ladder_refit_timestamp_seconds",
		"When the official ratings were last refitted (Unix time), successfully or not.", gameOnly, nil)
	descRefitTook = prometheus.NewDesc("arena_ladder_refit_duration_seconds",
		"How long the last refit of the official ratings took.", gameOnly, nil)
	descRefitFailed = prometheus.NewDesc("arena_ladder_refit_failed",
		"1 when the last refit of the official ratings failed (the rating series then keep the last good fit), else 0.", gameOnly, nil)
)

// Describe sends the descriptions of every store-derived series.
func (e *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descGames, descForfeits, descScore, descMatches, descLast, descSuspended, descActiveBots, descSuspendedBots,
		descReadTook, descReadAt, descElo, descLow, descHigh, descRefitAt, descRefitTook, descRefitFailed} {
		ch <- d
	}
	for _, d := range fleetDescs {
		ch <- d
	}
}

// Collect sends the series from memory: the aggregates as the last refresh left them,
// the last refit and the last fleet read. It never reads the database.
func (e *Exporter) Collect(ch chan<- prometheus.Metric) {
	var ms []prometheus.Metric
	e.agg.Read(func(v tally.View) { ms = e.totals(v) })
	for _, m := range ms {
		ch <- m
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.collectFit(ch)
	e.collectFleet(ch)
}

// totals are the series of the aggregates; the caller holds their read lock.
func (e *Exporter) totals(v tally.View) []prometheus.Metric {
	if !v.Loaded {
		return nil
	}
	var ms []prometheus.Metric
	metric := func(d *prometheus.Desc, t prometheus.ValueType, x float64, labels ...string) {
		ms = append(ms, prometheus.MustNewConstMetric(d, t, x, labels...))
	}
	suspended := map[int64]bool{}
	for _, x := range v.Suspensions {
		if x.Holds() {
			suspended[x.Bot] = true
		}
	}
	e.mu.Lock()
	playing := e.playing(v.Bots)
	e.mu.Unlock()
	active, nsus := 0, 0
	for _, b := range playing {
		sus := 0.0
		if suspended[b.ID] {
			sus = 1
			nsus++
		} else {
			active++
		}
		metric(descSuspended, prometheus.GaugeValue, sus, e.game, b.Name, version(b))
	}
	metric(descActiveBots, prometheus.GaugeValue, float64(active), e.game)
	metric(descSuspendedBots, prometheus.GaugeValue, float64(nsus), e.game)
	for name, g := range v.Games {
		for id, bt := range g.Bots {
			b, ok := playing[id]
			if !ok {
				continue
			}
			metric(descGames, prometheus.CounterValue, float64(bt.Games), name, b.Name, version(b))
			metric(descForfeits, prometheus.CounterValue, float64(bt.Forfeits()), name, b.Name, version(b))
			metric(descScore, prometheus.CounterValue, bt.Points, name, b.Name, version(b))
		}
		metric(descMatches, prometheus.CounterValue, float64(g.Games), name)
		metric(descLast, prometheus.GaugeValue, float64(g.Last.UnixMilli())/1000, name)
	}
	metric(descReadTook, prometheus.GaugeValue, v.Took.Seconds(), e.game)
	metric(descReadAt, prometheus.GaugeValue, float64(v.At.UnixMilli())/1000, e.game)
	return ms
}

// playing is the versions of bots that play (suspended or not), by ID; a version seen
// retired for the first time is handed to OnRetired.
func (e *Exporter) playing(bots []store.Bot) map[int64]store.Bot {
	out := map[int64]store.Bot{}
	for _, b := range bots {
		if b.Active() {
			out[b.ID] = b
			delete(e.retired, b.ID) // reactivated: it may retire again
			continue
		}
		if !e.retired[b.ID] {
			e.retired[b.ID] = true
			if e.OnRetired != nil {
				e.OnRetired(b)
			}
		}
	}
	return out
}

func (e *Exporter) collectFit(ch chan<- prometheus.Metric) {
	f := e.fit
	if !f.done {
		return
	}
	failed := 0.0
	if f.err != nil {
		failed = 1
	}
	ch <- prometheus.MustNewConstMetric(descRefitAt, prometheus.GaugeValue, float64(f.at.UnixMilli())/1000, e.game)
	ch <- prometheus.MustNewConstMetric(descRefitTook, prometheus.GaugeValue, f.took.Seconds(), e.game)
	ch <- prometheus.MustNewConstMetric(descRefitFailed, prometheus.GaugeValue, failed, e.game)
	for _, t := range f.tables {
		for _, s := range t.Standings {
			if s.Games == 0 || math.IsNaN(s.Elo) || e.retired[s.Bot.ID] || !s.Bot.Active() {
				continue
			}
			v := version(s.Bot)
			ch <- prometheus.MustNewConstMetric(descElo, prometheus.GaugeValue, s.Elo, t.Game, s.Bot.Name, v, "official")
			ch <- prometheus.MustNewConstMetric(descElo, prometheus.GaugeValue, s.Live, t.Game, s.Bot.Name, v, "live")
			ch <- prometheus.MustNewConstMetric(descLow, prometheus.GaugeValue, s.Low, t.Game, s.Bot.Name, v)
			ch <- prometheus.MustNewConstMetric(descHigh, prometheus.GaugeValue, s.High, t.Game, s.Bot.Name, v)
		}
	}
}

func version(b store.Bot) string { return strconv.Itoa(b.Version) }

// BotLabel splits a ladder entrant's name ("name vN", as the ladder names the runner's
// entrants) into the bot and version labels; a name without a version stays whole.
func BotLabel(entrant string) (bot, version string) {
	i := strings.LastIndex(entrant, " v")
	if i < 0 {
		return entrant, ""
	}
	if _, err := strconv.Atoi(entrant[i+2:]); err != nil {
		return entrant, ""
	}
	return entrant[:i], entrant[i+2:]
}

// ops are the store operations whose errors are counted.
var ops = []string{"add_bot", "bots", "retire_bot", "new_block", "open_blocks", "record", "read", "fleet"}

// counted is a store whose failed calls are counted by operation. It embeds the
// store, so a method added to the interface passes through (uncounted until listed).
type counted struct {
	store.Store
	errs *prometheus.CounterVec
}

func (c counted) count(op string, err error) error {
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		c.errs.WithLabelValues(op).Inc()
	}
	return err
}

func (c counted) AddBot(ctx context.Context, b store.Bot) (store.Bot, error) {
	b, err := c.Store.AddBot(ctx, b)
	return b, c.count("add_bot", err)
}

func (c counted) Bots(ctx context.Context, all bool) ([]store.Bot, error) {
	b, err := c.Store.Bots(ctx, all)
	return b, c.count("bots", err)
}

func (c counted) RetireBot(ctx context.Context, name string) (store.Bot, error) {
	b, err := c.Store.RetireBot(ctx, name)
	return b, c.count("retire_bot", err)
}

func (c counted) NewBlock(ctx context.Context, b store.Block) (store.Block, error) {
	b, err := c.Store.NewBlock(ctx, b)
	return b, c.count("new_block", err)
}

func (c counted) OpenBlocks(ctx context.Context, game string) ([]store.Block, error) {
	b, err := c.Store.OpenBlocks(ctx, game)
	return b, c.count("open_blocks", err)
}

func (c counted) RecordMatch(ctx context.Context, m store.Match) (store.Match, error) {
	m, err := c.Store.RecordMatch(ctx, m)
	return m, c.count("record", err)
}

// Matches counts the store's own failures only: an error fn returned is the caller's.
func (c counted) Matches(ctx context.Context, game string, fn func(store.Match) error) error {
	var fnErr error
	err := c.Store.Matches(ctx, game, func(m store.Match) error {
		fnErr = fn(m)
		return fnErr
	})
	if err != nil && (fnErr == nil || !errors.Is(err, fnErr)) {
		return c.count("read", err)
	}
	return err
}

// MatchesAfter counts the store's own failures only, as Matches does.
func (c counted) MatchesAfter(ctx context.Context, game string, after int64, fn func(store.Match) error) error {
	var fnErr error
	err := c.Store.MatchesAfter(ctx, game, after, func(m store.Match) error {
		fnErr = fn(m)
		return fnErr
	})
	if err != nil && (fnErr == nil || !errors.Is(err, fnErr)) {
		return c.count("read", err)
	}
	return err
}

// Match counts a failure to read, not a game that is not there.
func (c counted) Match(ctx context.Context, id int64) (store.Match, error) {
	m, err := c.Store.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return m, err
	}
	return m, c.count("read", err)
}

// Observer labels the runner's series of a ladder process by bot name alone: the
// ladder names its entrants "name vN", and only one version of a name plays at a time.
func Observer(inner arena.Observer) arena.Observer { return observer{inner} }

type observer struct{ arena.Observer }

func botName(entrant string) string { b, _ := BotLabel(entrant); return b }

func (o observer) BotStarted(bot string, restart bool) { o.Observer.BotStarted(botName(bot), restart) }
func (o observer) BotStopped(bot string)               { o.Observer.BotStopped(botName(bot)) }
func (o observer) Decision(game, bot string, took time.Duration) {
	o.Observer.Decision(game, botName(bot), took)
}

func (o observer) MatchFinished(game string, m *arena.MatchResult, took time.Duration, err error) {
	if m != nil {
		c := *m
		c.Seats = append([]arena.SeatResult(nil), m.Seats...)
		for i := range c.Seats {
			c.Seats[i].Bot = botName(c.Seats[i].Bot)
		}
		m = &c
	}
	o.Observer.MatchFinished(game, m, took, err)
}
