// Package watch turns a recorded game into the steps a viewer walks through, from one
// point of view: a seat's (what that seat knew while playing) or the public one (what a
// spectator at the table saw, no hidden card at all). Every step carries the view of
// that moment, what happened since the previous step in words, and, at the seat's own
// decisions, the options it was offered and the one it chose. The ladder's game page
// and its JSON endpoint serve these steps; `arena replay --seat` prints the same facts.
package watch

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/watch/table"
)

// Public is the point of view of a spectator: public events and views with no hand.
const Public = -1

// Game is one recorded game from one point of view.
type Game struct {
	Match   string   `json:"match"`
	Game    string   `json:"game"`
	Players int      `json:"players"`
	Bots    []string `json:"bots"`
	// Seat is the point of view: a seat, or -1 (Public).
	Seat  int    `json:"seat"`
	Steps []Step `json:"steps"`
	// Result is the ranking of the last step.
	Result *Result `json:"result,omitempty"`
}

// Result is the game's end.
type Result struct {
	Place       []int `json:"place"` // 0 is first
	Score       []int `json:"score"`
	Adjudicated bool  `json:"adjudicated,omitempty"`
}

// Step is the game after N decisions, as the point of view saw it.
type Step struct {
	N int `json:"n"`
	// Decided is the decision that led here (absent at the deal).
	Decided *Decided `json:"decided,omitempty"`
	// Happened is what the point of view saw since the previous step, in words.
	Happened []string `json:"happened"`
	// Forfeits are the seats that forfeited at this step's decision.
	Forfeits []Forfeit `json:"forfeits,omitempty"`
	// ToMove is the seat that owes the next decision, or -1 at the end.
	ToMove int `json:"to_move"`
	// View is the engine's view of the point of view (its game's own view type) and
	// Text the engine's rendering of it.
	View engine.View `json:"view"`
	Text string      `json:"text"`
	// Table is the view drawn as SVG (package table).
	Table string `json:"table"`
	// Asked is set when the point of view's seat is to move: its options and choice.
	Asked *Asked `json:"asked,omitempty"`
}

// Forfeit is a seat's forfeit: how its play ended (timeout, crash...) and the arena's
// account of it.
type Forfeit struct {
	Seat   int    `json:"seat"`
	Ending string `json:"ending"`
	Detail string `json:"detail"`
}

// Decided is a decision as the point of view saw it: the seat always, what it chose
// only when it was the point of view's own (another seat's choice shows in Happened as
// far as it was public).
type Decided struct {
	Seat int    `json:"seat"`
	Text string `json:"text,omitempty"`
}

// Asked is the point of view's own decision: the legal options in words, the index
// chosen, the time it took, and whether the fallback chose for a forfeited seat.
type Asked struct {
	Options  []string `json:"options"`
	Chosen   int      `json:"chosen"`
	Ms       string   `json:"ms"`
	Fallback bool     `json:"fallback,omitempty"`
}

// Steps re-simulates rep from the point of view seat (a seat or Public). A replay
// that does not reproduce is an error.
func Steps(rep *arena.Replay, seat int) (*Game, error) {
	h := rep.Header
	if seat < Public || seat >= h.Players {
		return nil, fmt.Errorf("the point of view is a seat 0 to %d or the public one, not %d", h.Players-1, seat)
	}
	g, err := engine.NewWith(h.Game, h.Seed, h.Players, h.Options)
	if err != nil {
		return nil, err
	}
	out := &Game{Match: h.Match, Game: h.Game, Players: h.Players, Bots: h.Bots, Seat: seat}
	forfeits := map[int][]Forfeit{}
	for _, e := range rep.Endings {
		forfeits[e.N] = append(forfeits[e.N], Forfeit{Seat: e.Seat, Ending: fmt.Sprint(e.Ending), Detail: e.Detail})
	}
	out.Steps = append(out.Steps, step(g, g.Log(), seat, nil))
	end, err := arena.Resimulate(rep, func(g engine.Game, evs []engine.Event, d arena.Record) {
		prev := &out.Steps[len(out.Steps)-1]
		prev.Forfeits = forfeits[d.N]
		if prev.Asked != nil {
			prev.Asked.Chosen = d.Choice
			prev.Asked.Ms = strconv.FormatFloat(float64(d.Micros)/1000, 'f', 2, 64)
			prev.Asked.Fallback = d.Forfeit
		}
		decided := &Decided{Seat: d.Seat}
		if d.Seat == seat {
			decided.Text = d.Text
		}
		out.Steps = append(out.Steps, step(g, evs, seat, decided))
	})
	if err != nil {
		return nil, err
	}
	for i := range out.Steps {
		st := &out.Steps[i]
		if st.Table, err = table.Draw(st.View, h.Bots); err != nil {
			return nil, err
		}
	}
	out.Steps[len(out.Steps)-1].Forfeits = forfeits[len(rep.Decisions)]
	res := end.Result()
	out.Result = &Result{Place: res.Place, Score: res.Score, Adjudicated: res.Adjudicated}
	return out, nil
}

// step is the state of g from the point of view seat, with the events evs since the
// previous step.
func step(g engine.Game, evs []engine.Event, seat int, decided *Decided) Step {
	v := g.View(seat)
	st := Step{N: g.Decisions(), Decided: decided, Happened: []string{}, ToMove: g.ToMove(), View: v, Text: v.String()}
	for _, e := range evs {
		if sees(e.Audience, seat, g.Players()) {
			st.Happened = append(st.Happened, g.DescribeEvent(e))
		}
	}
	if seat >= 0 && !g.Terminal() && g.ToMove() == seat {
		st.Asked = &Asked{}
		for _, o := range g.Options() {
			st.Asked.Options = append(st.Asked.Options, g.Describe(o))
		}
	}
	return st
}

// sees reports whether the point of view seat sees an event of audience a: the public
// point of view sees only what every seat of the game sees.
func sees(a engine.Audience, seat, players int) bool {
	if seat == Public {
		all := engine.Audience(1<<players - 1)
		return a&all == all
	}
	return a.Sees(seat)
}
