package arena

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/bot"
)

// MatchResult is one finished match.
type MatchResult struct {
	ID       string       `json:"id"`
	Deal     int          `json:"deal"`
	Rotation int          `json:"rotation"`
	Seed     uint64       `json:"seed"`
	Seats    []SeatResult `json:"seats"`
	// Adjudicated is set when the game's decision bound ended it.
	Adjudicated bool   `json:"adjudicated,omitempty"`
	Decisions   int    `json:"decisions"`
	Hash        string `json:"hash"`
	Replay      string `json:"replay,omitempty"`
	// ReplayData is the replay itself with Config.ReplaysInMemory (no file is
	// written), else nil.
	ReplayData []byte `json:"-"`
	// replayTemp is where the replay is written until the match is committed.
	replayTemp string
}

// SeatResult is one seat of a finished match.
type SeatResult struct {
	Entrant int    `json:"entrant"`
	Bot     string `json:"bot"`
	Ending  Ending `json:"ending"`
	Detail  string `json:"detail,omitempty"`
	// At is the decision at which a forfeited seat forfeited (as the replay numbers
	// them; `arena replay --seat S --at N` shows it).
	At *int `json:"at,omitempty"`
	// Place is after forfeits (0 is first); GamePlace is the game's own.
	Place     int `json:"place"`
	GamePlace int `json:"game_place"`
	// Score is in the game's unit; Points is the fraction of opponents finished ahead
	// of, ties half.
	Score  int     `json:"score"`
	Points float64 `json:"points"`
	// Answered counts the decisions the bot answered (their times are in the report's
	// per-bot latencies).
	Answered int `json:"-"`
	// Spent is the time the seat's bank was charged in the match.
	Spent time.Duration `json:"-"`
}

// matchSpec is one match to play: a deal in one rotation.
type matchSpec struct {
	id             string
	deal, rotation int
	seed           uint64
	entrants       []int // entrant of each seat
}

// seatState is the arena's side of one seat during a match.
type seatState struct {
	proc    bot.Process
	conn    bot.Seat
	bank    time.Duration
	ending  Ending
	detail  string
	forfeit bool
	at      int // the decision of the forfeit
}

func (r *runner) play(ctx context.Context, m matchSpec) (res *MatchResult, err error) {
	cfg := &r.cfg
	cfg.Observer.MatchStarted(cfg.Game)
	began := time.Now()
	defer func() { cfg.Observer.MatchFinished(cfg.Game, res, time.Since(began), err) }()
	return r.playMatch(ctx, m)
}

// table is one match in play: its game, its seats, its replay and what it reports.
// playMatch runs its parts in order: start the seats, the decision loop, the result,
// the goodbyes.
type table struct {
	r     *runner
	m     matchSpec
	g     engine.Game
	res   *MatchResult
	rw    *replayWriter
	seats []seatState
}

func (r *runner) playMatch(ctx context.Context, m matchSpec) (_ *MatchResult, err error) {
	t, err := r.newTable(m)
	if err != nil {
		return nil, err
	}
	defer func() {
		t.release()
		if err != nil {
			discardReplay(t.res)
		}
	}()
	if err := t.startSeats(ctx); err != nil {
		return nil, err
	}
	if err := t.decisions(ctx); err != nil {
		return nil, err
	}
	end := t.result()
	t.goodbyes(end)
	t.rw.write(Record{Type: "result", Place: end.place, GamePlace: end.gr.Place, Score: end.gr.Score,
		Adjudicated: end.gr.Adjudicated, N: t.g.Decisions(), Hash: t.res.Hash})
	if err := t.rw.close(); err != nil {
		return nil, err
	}
	if t.rw.mem != nil {
		t.res.ReplayData = t.rw.mem.Bytes()
	}
	return t.res, nil
}

// newTable deals the game and opens the replay.
func (r *runner) newTable(m matchSpec) (*table, error) {
	n := len(m.entrants)
	g, err := r.cfg.start(m.seed, n)
	if err != nil {
		return nil, err
	}
	res := &MatchResult{ID: m.id, Deal: m.deal, Rotation: m.rotation, Seed: m.seed, Seats: make([]SeatResult, n)}
	for s, e := range m.entrants {
		res.Seats[s].Entrant, res.Seats[s].Bot = e, r.bots[e].entrant.Name
	}
	rw, err := r.openReplay(m, res)
	if err != nil {
		return nil, err
	}
	seats := make([]seatState, n)
	for s := range seats {
		seats[s].bank = r.cfg.Clock.Bank
	}
	return &table{r: r, m: m, g: g, res: res, rw: rw, seats: seats}, nil
}

// botMatchID is the id a bot is told for match m: with the run's tag, if it has one.
func (r *runner) botMatchID(m matchSpec) string {
	if r.cfg.Tag == "" {
		return m.id
	}
	return r.cfg.Tag + "/" + m.id
}

// release closes what is still open (a match that failed or was cancelled half-way).
func (t *table) release() {
	for s := range t.seats {
		if t.seats[s].conn != nil {
			_ = t.seats[s].conn.Close(nil, 0)
		}
	}
	_ = t.rw.close()
}

// forfeit ends a seat: the game's fallback plays its remaining decisions.
func (t *table) forfeit(s int, e Ending, detail string) {
	st := &t.seats[s]
	st.forfeit, st.ending, st.detail, st.at = true, e, detail, t.g.Decisions()
	if l, ok := st.proc.(*lease); ok {
		l.spoil() // no later run inherits what state it is in
	}
	if st.conn != nil {
		_ = st.conn.Close(nil, 0)
		st.conn = nil
	}
	t.r.cfg.Logger.Debug("seat forfeits", "match", t.m.id, "seat", s, "bot", t.res.Seats[s].Bot, "ending", e, "detail", detail)
	t.rw.write(Record{Type: "ending", Seat: s, Ending: &e, Detail: detail, N: t.g.Decisions()})
}

// startSeats gets each seat's bot process and tells it the match starts. A bot that
// does not start or does not accept the match forfeits its seat; only a cancelled ctx
// or a run-ending failure (restarts exhausted) is an error.
func (t *table) startSeats(ctx context.Context) error {
	cfg := &t.r.cfg
	for s, e := range t.m.entrants {
		proc, err := t.r.bots[e].get(ctx, s)
		var se *bot.StartError
		if errors.As(err, &se) {
			t.forfeit(s, startEnding(se.Kind), se.Error())
			continue
		}
		if err != nil {
			return err
		}
		t.seats[s].proc = proc
		start := bot.Start{MatchID: t.r.botMatchID(t.m), Game: cfg.Game, Seat: s, Players: len(t.seats),
			Seed: botSeed(cfg.Seed, t.m.deal, t.m.rotation, s), Decision: cfg.Clock.Decision, Bank: cfg.Clock.Bank, Options: cfg.Options}
		conn, err := proc.StartMatch(ctx, start, cfg.Clock.Startup)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			e, d := classify(err, proc)
			t.forfeit(s, e, "starting the match: "+d)
			continue
		}
		t.seats[s].conn = conn
	}
	return nil
}

// decisions plays the game to its end: each decision is asked of its seat's bot, or
// played by the fallback for a forfeited seat.
func (t *table) decisions(ctx context.Context) error {
	g, cfg := t.g, &t.r.cfg
	bound := t.r.spec.MaxDecisions + 1
	wall := time.Now().Add(cfg.Clock.Match)
	for !g.Terminal() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if g.Decisions() > bound {
			return fmt.Errorf("match %s: %s did not end within its bound of %d decisions", t.m.id, cfg.Game, t.r.spec.MaxDecisions)
		}
		s := g.ToMove()
		opts := g.Options()
		choice, took := -1, time.Duration(0)
		if !t.seats[s].forfeit {
			var err error
			if choice, took, err = t.ask(ctx, s, opts, wall); err != nil {
				return err
			}
		}
		fallback := choice < 0
		if fallback {
			choice = g.Fallback()
		}
		if choice < 0 || choice >= len(opts) {
			return fmt.Errorf("match %s: %s's fallback %d is not an option", t.m.id, cfg.Game, choice)
		}
		t.rw.decision(g, choice, took, fallback)
		if err := g.Apply(choice); err != nil {
			return fmt.Errorf("match %s: %w", t.m.id, err)
		}
	}
	return nil
}

// ask puts one decision to seat s's bot. It returns the bot's choice, or -1 when the
// seat forfeited on it, and the time the bot took; an error ends the match.
func (t *table) ask(ctx context.Context, s int, opts []engine.Option, wall time.Time) (int, time.Duration, error) {
	cfg, st := &t.r.cfg, &t.seats[s]
	limit := min(cfg.Clock.Decision, max(st.bank, 0))
	capped := false
	if left := time.Until(wall); left < limit {
		limit, capped = max(left, 0), true
	}
	choice, elapsed, err := st.conn.Decide(t.g, bot.Ask{Bank: st.bank, Deadline: limit, Wait: limit + cfg.Clock.Grace})
	st.bank -= elapsed
	t.res.Seats[s].Spent += elapsed
	cfg.Observer.Decision(cfg.Game, t.res.Seats[s].Bot, elapsed)
	switch {
	case err != nil && ctx.Err() != nil:
		return -1, elapsed, ctx.Err()
	case err != nil && !botsFault(err):
		return -1, elapsed, fmt.Errorf("match %s: %w", t.m.id, err)
	case err != nil:
		e, d := classify(err, st.proc)
		switch {
		case e == Timeout && capped:
			d = fmt.Sprintf("the match passed its wall-clock cap of %s", cfg.Clock.Match)
		case e == Timeout:
			d = fmt.Sprintf("no answer before the deadline of %s (%s, grace %s): waited %s, bank %s left",
				ms(limit+cfg.Clock.Grace), ms(limit), ms(cfg.Clock.Grace), ms(elapsed), ms(max(st.bank, 0)))
		}
		t.forfeit(s, e, d)
		return -1, elapsed, nil
	case choice < 0 || choice >= len(opts):
		t.forfeit(s, Illegal, fmt.Sprintf("chose option %d of %d", choice, len(opts)))
		return -1, elapsed, nil
	}
	t.res.Seats[s].Answered++
	t.r.lat[t.m.entrants[s]].add(elapsed)
	if t.r.first.Load() == 0 {
		t.r.first.CompareAndSwap(0, int64(time.Since(t.r.began)))
	}
	return choice, elapsed, nil
}

// ms shows a duration to the tenth of a millisecond.
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// ending is how a finished match ended, as the bots are told.
type ending struct {
	gr    engine.Result
	place []int // after forfeits
}

// result fills in the match's result: the game's places with forfeited seats after
// every other, and each seat's points.
func (t *table) result() ending {
	gr := t.g.Result()
	forfeited := make([]bool, len(t.seats))
	for s := range t.seats {
		forfeited[s] = t.seats[s].forfeit
	}
	place := placesAfterForfeits(gr.Place, forfeited)
	points := placePoints(place)
	t.res.Adjudicated, t.res.Decisions, t.res.Hash = gr.Adjudicated, t.g.Decisions(), hashString(t.g.Hash())
	for s := range t.res.Seats {
		sr := &t.res.Seats[s]
		sr.Ending, sr.Detail = t.seats[s].ending, t.seats[s].detail
		if t.seats[s].forfeit {
			sr.At = &t.seats[s].at
		}
		sr.Place, sr.GamePlace, sr.Points = place[s], gr.Place[s], points[s]
		if s < len(gr.Score) {
			sr.Score = gr.Score[s]
		}
	}
	return ending{gr: gr, place: place}
}

// placesAfterForfeits keeps the game's order among the seats that played on and puts
// every forfeited seat after them, sharing the last place.
func placesAfterForfeits(gamePlace []int, forfeited []bool) []int {
	n := len(gamePlace)
	key := make([]int, n)
	for s := range key {
		key[s] = -1
		if !forfeited[s] {
			key[s] = n - gamePlace[s]
		}
	}
	return engine.PlacesByScore(key, engine.NoSeat)
}

// placePoints is each seat's fraction of opponents finished ahead of, ties half.
func placePoints(place []int) []float64 {
	n := len(place)
	points := make([]float64, n)
	for s := range place {
		for o := range place {
			switch {
			case o == s:
			case place[s] < place[o]:
				points[s]++
			case place[s] == place[o]:
				points[s] += 0.5
			}
		}
		if n > 1 {
			points[s] /= float64(n - 1)
		}
	}
	return points
}

// goodbyes tells every seat's bot how the match ended, without waiting: each is told
// in the background with a short deadline of its own (bot.EndMatchTimeout), so
// that a bot slow to take the news holds up no match.
func (t *table) goodbyes(end ending) {
	var endScore, endings []int
	for _, sr := range t.res.Seats {
		endScore = append(endScore, sr.Score)
		endings = append(endings, sr.Ending.wire())
	}
	for s := range t.seats {
		st := &t.seats[s]
		e := &bot.End{MatchID: t.r.botMatchID(t.m), Seat: s, Place: end.place, Score: endScore, Adjudicated: end.gr.Adjudicated, Endings: endings}
		switch {
		case st.conn != nil:
			// The result is news, not a question: a bot slow to take it holds up no
			// match, and is not waited for past its own short deadline.
			t.r.ending.Add(1)
			go func(c bot.Seat) {
				defer t.r.ending.Done()
				_ = c.Close(e, bot.EndMatchTimeout)
			}(st.conn)
			st.conn = nil
		case st.proc != nil && !st.proc.Exited():
			// A forfeited seat's bot may be stuck; tell it without waiting, so that it
			// can drop the match.
			go func(p bot.Process) { _ = p.EndMatch(*e) }(st.proc)
		}
	}
}

// classify turns a failed call into an ending. A bot whose process is gone (allowing it
// a moment to be seen as gone) crashed; anything else it did wrong is a protocol error.
func classify(err error, proc bot.Process) (Ending, string) {
	switch {
	case errors.Is(err, bot.ErrDeadline):
		return Timeout, "no answer before the deadline"
	case errors.Is(err, bot.ErrMalformed):
		return Protocol, err.Error()
	}
	// A dead process shows as a broken transport a moment before its exit is reaped
	// (and, under the sandbox's helper, before the helper has killed what the bot left
	// and exited itself); an error status the bot sent itself needs no wait. The bound
	// is room for a loaded machine: a live bot that broke its stream costs it once.
	if ce := (*bot.CallError)(nil); errors.As(err, &ce) && ce.Broken {
		select {
		case <-proc.Done():
		case <-time.After(2 * time.Second):
		}
	}
	if proc.Exited() {
		msg := "the bot process exited"
		if why := proc.Stopped(); why != nil {
			msg = why.Error()
		}
		if tail := lastLine(proc.Stderr()); tail != "" {
			msg += fmt.Sprintf(" (its stderr ends: %q)", tail)
		}
		return Crash, msg
	}
	// What the bot sent is escaped (by the transport) before it can reach a terminal.
	if ce := (*bot.CallError)(nil); errors.As(err, &ce) {
		return Protocol, ce.Detail
	}
	return Protocol, bot.Printable(err.Error())
}

// botsFault reports whether a failed decision is the bot's doing (a forfeit) rather
// than the host's (a question it could not build, which ends the match).
func botsFault(err error) bool {
	var ce *bot.CallError
	return errors.Is(err, bot.ErrDeadline) || errors.Is(err, bot.ErrMalformed) || errors.As(err, &ce)
}
