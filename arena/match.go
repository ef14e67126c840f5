package arena

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
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
}

// SeatResult is one seat of a finished match.
type SeatResult struct {
	Entrant int    `json:"entrant"`
	Bot     string `json:"bot"`
	Ending  Ending `json:"ending"`
	Detail  string `json:"detail,omitempty"`
	// Place is after forfeits (0 is first); GamePlace is the game's own.
	Place     int `json:"place"`
	GamePlace int `json:"game_place"`
	// Score is in the game's unit; Points is the fraction of opponents finished ahead
	// of, ties half.
	Score  int     `json:"score"`
	Points float64 `json:"points"`
	// Latencies of the bot's answered decisions.
	Latencies []time.Duration `json:"-"`
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
	proc    *protocol.Process
	conn    *protocol.Seat
	bank    time.Duration
	ending  Ending
	detail  string
	forfeit bool
	// wire builds the seat's requests: what it may see, and its own decision count.
	wire *protocol.SeatRequests
}

func (r *runner) play(ctx context.Context, m matchSpec) (res *MatchResult, err error) {
	cfg := &r.cfg
	cfg.Observer.MatchStarted(cfg.Game)
	began := time.Now()
	defer func() { cfg.Observer.MatchFinished(cfg.Game, res, time.Since(began), err) }()
	return r.playMatch(ctx, m)
}

func (r *runner) playMatch(ctx context.Context, m matchSpec) (*MatchResult, error) {
	cfg := &r.cfg
	n := len(m.entrants)
	g, err := cfg.start(m.seed, n)
	if err != nil {
		return nil, err
	}
	res := &MatchResult{ID: m.id, Deal: m.deal, Rotation: m.rotation, Seed: m.seed, Seats: make([]SeatResult, n)}
	rw, err := r.openReplay(m, res)
	if err != nil {
		return nil, err
	}
	defer rw.close()

	seats := make([]seatState, n)
	defer func() {
		for s := range seats {
			if seats[s].conn != nil {
				_ = seats[s].conn.Close(nil, 0)
			}
		}
	}()
	forfeit := func(s int, e Ending, detail string) {
		st := &seats[s]
		st.forfeit, st.ending, st.detail = true, e, detail
		if st.conn != nil {
			_ = st.conn.Close(nil, 0)
			st.conn = nil
		}
		r.cfg.Logger.Info("seat forfeits", "match", m.id, "seat", s, "bot", r.bots[m.entrants[s]].entrant.Name, "ending", e, "detail", detail)
		rw.write(Record{Type: "ending", Seat: s, Ending: &e, Detail: detail, N: g.Decisions()})
	}
	for s, e := range m.entrants {
		res.Seats[s].Entrant, res.Seats[s].Bot = e, r.bots[e].entrant.Name
		seats[s].bank = cfg.Clock.Bank
		seats[s].wire = protocol.NewSeatRequests(r.codec, m.id, s)
		proc, err := r.bots[e].get()
		var se *protocol.StartError
		if errors.As(err, &se) {
			forfeit(s, startEnding(se.Kind), se.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		seats[s].proc = proc
		start := &botpb.StartRequest{MatchId: m.id, Game: cfg.Game, Seat: int32(s), Players: int32(n),
			Seed: mix(m.seed, uint64(m.rotation)<<8|uint64(s)), DecisionDeadlineUs: cfg.Clock.Decision.Microseconds(),
			BankUs: cfg.Clock.Bank.Microseconds(), Options: cfg.Options}
		conn, err := proc.OpenSeat(ctx, start, cfg.Clock.Startup)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			e, d := classify(err, proc)
			forfeit(s, e, "starting the match: "+d)
			continue
		}
		seats[s].conn = conn
	}

	bound := r.spec.MaxDecisions + 1
	wall := time.Now().Add(cfg.Clock.Match)
	for !g.Terminal() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g.Decisions() > bound {
			return nil, fmt.Errorf("match %s: %s did not end within its bound of %d decisions", m.id, cfg.Game, r.spec.MaxDecisions)
		}
		s := g.ToMove()
		st := &seats[s]
		opts := g.Options()
		choice, took := -1, time.Duration(0)
		if !st.forfeit {
			req, err := st.wire.Next(g)
			if err != nil {
				return nil, fmt.Errorf("match %s: %w", m.id, err)
			}
			limit := min(cfg.Clock.Decision, max(st.bank, 0))
			capped := false
			if left := time.Until(wall); left < limit {
				limit, capped = max(left, 0), true
			}
			req.BankUs, req.DeadlineUs = st.bank.Microseconds(), limit.Microseconds()
			rep, elapsed, err := st.conn.Decide(req, limit+cfg.Clock.Grace)
			st.bank -= elapsed
			took = elapsed
			cfg.Observer.Decision(cfg.Game, res.Seats[s].Bot, elapsed)
			switch {
			case err != nil && ctx.Err() != nil:
				return nil, ctx.Err()
			case err != nil:
				e, d := classify(err, st.proc)
				if e == Timeout && capped {
					d = fmt.Sprintf("the match passed its wall-clock cap of %s", cfg.Clock.Match)
				}
				forfeit(s, e, d)
			case rep.Choice < 0 || int(rep.Choice) >= len(opts):
				forfeit(s, Illegal, fmt.Sprintf("chose option %d of %d", rep.Choice, len(opts)))
			default:
				choice = int(rep.Choice)
				res.Seats[s].Latencies = append(res.Seats[s].Latencies, elapsed)
			}
		}
		fallback := choice < 0
		if fallback {
			choice = g.Fallback()
		}
		if choice < 0 || choice >= len(opts) {
			return nil, fmt.Errorf("match %s: %s's fallback %d is not an option", m.id, cfg.Game, choice)
		}
		o := opts[choice]
		rw.write(Record{Type: "decision", N: g.Decisions(), Seat: s, Choice: choice, Option: optionJSON(o),
			Text: g.Describe(o), Micros: took.Microseconds(), Forfeit: fallback})
		if err := g.Apply(choice); err != nil {
			return nil, fmt.Errorf("match %s: %w", m.id, err)
		}
	}

	gr := g.Result()
	key := make([]int, n)
	for s := range key {
		key[s] = -1 // forfeited seats share the last place
		if !seats[s].forfeit {
			key[s] = n - gr.Place[s]
		}
	}
	place := engine.PlacesByScore(key, engine.NoSeat)
	res.Adjudicated, res.Decisions, res.Hash = gr.Adjudicated, g.Decisions(), hashString(g.Hash())
	var endPlace, endScore []int32
	var endings []botpb.Ending
	for s := range res.Seats {
		sr := &res.Seats[s]
		sr.Ending, sr.Detail = seats[s].ending, seats[s].detail
		sr.Place, sr.GamePlace = place[s], gr.Place[s]
		if s < len(gr.Score) {
			sr.Score = gr.Score[s]
		}
		for t := range place {
			switch {
			case t == s:
			case place[s] < place[t]:
				sr.Points++
			case place[s] == place[t]:
				sr.Points += 0.5
			}
		}
		if n > 1 {
			sr.Points /= float64(n - 1)
		}
		endPlace = append(endPlace, int32(place[s]))
		endScore = append(endScore, int32(sr.Score))
		endings = append(endings, sr.Ending.wire())
	}
	for s := range seats {
		e := &botpb.EndRequest{MatchId: m.id, Seat: int32(s), Place: endPlace, Score: endScore, Adjudicated: gr.Adjudicated, Endings: endings}
		switch {
		case seats[s].conn != nil:
			// The result is news, not a question: a bot slow to take it holds up no
			// match, and is not waited for past its own short deadline.
			r.ending.Add(1)
			go func(c *protocol.Seat) {
				defer r.ending.Done()
				_ = c.Close(e, protocol.EndMatchTimeout)
			}(seats[s].conn)
			seats[s].conn = nil
		case seats[s].proc != nil && !seats[s].proc.Exited():
			// A forfeited seat's bot may be stuck; tell it without waiting, so that it
			// can drop the match.
			go func(p *protocol.Process) {
				ctx, cancel := context.WithTimeout(context.Background(), protocol.EndMatchTimeout)
				defer cancel()
				_, _ = p.Bot.EndMatch(ctx, e)
			}(seats[s].proc)
		}
	}
	rw.write(Record{Type: "result", Place: place, GamePlace: gr.Place, Score: gr.Score, Adjudicated: gr.Adjudicated,
		N: g.Decisions(), Hash: res.Hash})
	if err := rw.close(); err != nil {
		return nil, err
	}
	return res, nil
}

// classify turns a failed call into an ending. A bot whose process is gone (allowing it
// a moment to be seen as gone) crashed; anything else it did wrong is a protocol error.
func classify(err error, proc *protocol.Process) (Ending, string) {
	switch {
	case errors.Is(err, protocol.ErrDeadline), status.Code(err) == codes.DeadlineExceeded:
		return Timeout, "no answer before the deadline"
	case errors.Is(err, protocol.ErrMalformed):
		return Protocol, err.Error()
	}
	// A dead process shows as a broken transport a moment before its exit is reaped
	// (and, under the sandbox's helper, before the helper has killed what the bot left
	// and exited itself); an error status the bot sent itself needs no wait. The bound
	// is room for a loaded machine: a live bot that broke its stream costs it once.
	switch status.Code(err) {
	case codes.Unavailable, codes.Canceled, codes.Unknown:
		select {
		case <-proc.Done():
		case <-time.After(2 * time.Second):
		}
	}
	if proc.Exited() {
		msg := "the bot process exited"
		if tail := lastLine(proc.Stderr()); tail != "" {
			msg += fmt.Sprintf(" (its stderr ends: %q)", tail)
		}
		return Crash, msg
	}
	if st, ok := status.FromError(err); ok {
		return Protocol, fmt.Sprintf("%s: %s", st.Code(), st.Message())
	}
	return Protocol, err.Error()
}

// mix derives independent seeds (splitmix64's finaliser).
func mix(a, b uint64) uint64 {
	z := a + 0x9e3779b97f4a7c15*(b+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// replayWriter writes one match's replay; with no replay directory it writes nothing.
type replayWriter struct {
	f   *os.File
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

func (r *runner) openReplay(m matchSpec, res *MatchResult) (*replayWriter, error) {
	rw := &replayWriter{}
	if r.cfg.ReplayDir == "" {
		return rw, nil
	}
	path := filepath.Join(r.cfg.ReplayDir, m.id+".jsonl")
	// O_EXCL: a replay already on disk is a record of another run and is never overwritten.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	res.Replay = path
	rw.f, rw.w = f, bufio.NewWriter(f)
	rw.enc = json.NewEncoder(rw.w)
	bots := make([]string, len(m.entrants))
	boxes := make([]SandboxJSON, len(m.entrants))
	for s, e := range m.entrants {
		bots[s] = r.bots[e].entrant.Name
		boxes[s] = r.sandbox
		boxes[s].Bot = bots[s]
	}
	c := r.cfg.Clock
	rw.write(Record{Type: "match", Format: ReplayFormat, Match: m.id, Game: r.cfg.Game, Options: r.cfg.Options, Seed: m.seed, Players: len(m.entrants),
		Deal: m.deal, Rotation: m.rotation, Bots: bots, Sandbox: boxes,
		Clock: &ClockJSON{DecisionMs: c.Decision.Milliseconds(), BankMs: c.Bank.Milliseconds(), GraceMs: c.Grace.Milliseconds(), MatchMs: c.Match.Milliseconds()}})
	return rw, nil
}

func (rw *replayWriter) write(rec Record) {
	if rw.enc == nil || rw.err != nil {
		return
	}
	rw.err = rw.enc.Encode(rec)
}

func (rw *replayWriter) close() error {
	if rw.f == nil {
		return rw.err
	}
	if err := rw.w.Flush(); err != nil && rw.err == nil {
		rw.err = err
	}
	if err := rw.f.Close(); err != nil && rw.err == nil {
		rw.err = err
	}
	rw.f = nil
	return rw.err
}
