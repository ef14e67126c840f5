package watch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/watch/table"
)

// Follower follows a replay while it is written (a game in progress: the runner's
// temporary replay file, written record by record) and turns what was added since the
// last Read into public steps. Nothing it returns is hidden from any seat: the steps
// are the public point of view's, a forfeit carries its seat and kind but not its
// detail (an illegal choice's detail counts the seat's options), and no decision's
// words or time are given.
type Follower struct {
	r       io.Reader
	partial []byte
	header  *arena.Record
	g       engine.Game
	done    bool
}

// Update is one thing that happened in a followed game: exactly one field is set.
type Update struct {
	// Game is the game's header, first: the game, its players and bots.
	Game *Game `json:"game,omitempty"`
	// Step is the table after a decision (or the deal).
	Step *Step `json:"step,omitempty"`
	// Forfeit is a seat's forfeit at decision N.
	Forfeit *LiveForfeit `json:"forfeit,omitempty"`
	// Result is the game's end.
	Result *Result `json:"result,omitempty"`
}

// LiveForfeit is a forfeit as a game in progress shows it.
type LiveForfeit struct {
	N      int    `json:"n"`
	Seat   int    `json:"seat"`
	Ending string `json:"ending"`
}

// Follow follows the replay r is the start of; each Read reads on from where the last
// one stopped.
func Follow(r io.Reader) *Follower { return &Follower{r: r} }

// Done reports whether the game's result was read.
func (f *Follower) Done() bool { return f.done }

// Read reads what was written since the last Read, up to the last whole line, and
// returns it as updates. A record that does not fit the game (a damaged file, a
// decision the engine refuses) is an error, and the Follower is not read again.
func (f *Follower) Read() ([]Update, error) {
	buf := make([]byte, 32<<10)
	for {
		n, err := f.r.Read(buf)
		f.partial = append(f.partial, buf[:n]...)
		if errors.Is(err, io.EOF) || n == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	var out []Update
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			return out, nil
		}
		line := f.partial[:i]
		f.partial = f.partial[i+1:]
		var rec arena.Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return out, fmt.Errorf("a game in progress: %w", err)
		}
		u, err := f.apply(rec)
		if err != nil {
			return out, err
		}
		out = append(out, u...)
	}
}

// apply turns one record into updates.
func (f *Follower) apply(rec arena.Record) ([]Update, error) {
	if f.header == nil {
		return f.start(rec)
	}
	switch rec.Type {
	case "decision":
		return f.decide(rec)
	case "ending":
		if rec.Ending == nil || rec.Seat < 0 || rec.Seat >= f.g.Players() {
			return nil, fmt.Errorf("a game in progress: a malformed ending")
		}
		return []Update{{Forfeit: &LiveForfeit{N: rec.N, Seat: rec.Seat, Ending: rec.Ending.String()}}}, nil
	case "result":
		if !f.g.Terminal() {
			return nil, fmt.Errorf("a game in progress: a result after %d decisions, the game is not over", f.g.Decisions())
		}
		f.done = true
		res := f.g.Result()
		// The places after forfeits are the recorded ones; the engine's are the game's.
		place := res.Place
		if len(rec.Place) == len(place) {
			place = rec.Place
		}
		return []Update{{Result: &Result{Place: place, Score: res.Score, Adjudicated: res.Adjudicated}}}, nil
	}
	return nil, fmt.Errorf("a game in progress: a record of type %q", rec.Type)
}

// start reads the header and deals.
func (f *Follower) start(rec arena.Record) ([]Update, error) {
	if err := arena.CheckHeader(rec); err != nil {
		return nil, fmt.Errorf("a game in progress: %w", err)
	}
	g, err := engine.NewWith(rec.Game, rec.Seed, rec.Players, rec.Options)
	if err != nil {
		return nil, err
	}
	f.header, f.g = &rec, g
	st, err := Draw(step(g, g.Log(), Public, nil), rec.Bots)
	if err != nil {
		return nil, err
	}
	head := &Game{Match: rec.Match, Game: rec.Game, Players: rec.Players, Bots: rec.Bots, Seat: Public}
	return []Update{{Game: head}, {Step: &st}}, nil
}

// decide applies a decision, checked as a replay's are, and draws the table after it.
func (f *Follower) decide(d arena.Record) ([]Update, error) {
	g := f.g
	if err := arena.CheckDecision(g, d); err != nil {
		return nil, fmt.Errorf("a game in progress: %w", err)
	}
	n := len(g.Log())
	if err := g.Apply(d.Choice); err != nil {
		return nil, err
	}
	st, err := Draw(step(g, g.Log()[n:], Public, &Decided{Seat: d.Seat}), f.header.Bots)
	if err != nil {
		return nil, err
	}
	return []Update{{Step: &st}}, nil
}

// Draw sets a step's drawing of its view, the seats named by bots.
func Draw(st Step, bots []string) (Step, error) {
	var err error
	st.Table, err = table.Draw(st.View, bots)
	return st, err
}

// StepOf is the step of g just after a decision from the point of view seat: its view,
// the events evs the point of view saw, and its options when it is to move. decided
// is the decision that led here (nil at the deal); its words are kept only for the
// point of view's own.
func StepOf(g engine.Game, evs []engine.Event, seat int, decided *Decided, bots []string) (Step, error) {
	if decided != nil && decided.Seat != seat {
		decided = &Decided{Seat: decided.Seat}
	}
	return Draw(step(g, evs, seat, decided), bots)
}
