package service

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
)

// Visibility, as the viewer states it: every game the ladder shows is finished, so
// the whole game is public, hidden cards and every seat's options included ("all
// seats"). A seat's view shows what that seat knew while playing: the public events
// and its own private ones, its own options and choices, and of the other seats only
// that they decided and how long they took.

// stepView is one decision as the viewer shows it.
type stepView struct {
	N       int
	Seat    int
	Bot     string
	Text    string // empty when hidden from the chosen point of view
	Options []optionView
	Ms      string
	Forfeit bool
	Endings []string
	Events  []string
}

type optionView struct {
	Text   string
	Chosen bool
}

type replayData struct {
	Match   int64
	Game    string
	Bots    []string
	Seat    int // -1: all seats
	Seats   []int
	Step    int
	Steps   int
	Current *stepView
	Opening []string
	Past    []stepView
	Result  []string
	Prev    int
	Next    int
	Last    int
}

// replayPage re-simulates a recorded game with the arena's replay reader and the
// engine's Describe functions, and shows it decision by decision.
func (s *Service) replayPage(r *http.Request) (any, *refusal) {
	m, rep, rf := s.readReplay(r)
	if rf != nil {
		return nil, rf
	}
	h := rep.Header
	seat := -1
	var err error
	if v := r.URL.Query().Get("seat"); v != "" && v != "all" {
		seat, err = strconv.Atoi(v)
		if err != nil || seat < 0 || seat >= h.Players {
			return nil, refuse(http.StatusBadRequest, fmt.Sprintf("seat is all or 0 to %d", h.Players-1))
		}
	}
	steps, opening, err := s.steps(rep, seat)
	if err != nil {
		return nil, internal(fmt.Errorf("game %d: %w", m.ID, err))
	}
	step := 0
	if v := r.URL.Query().Get("step"); v != "" {
		step, err = strconv.Atoi(v)
		if err != nil || step < 0 || step >= max(len(steps), 1) {
			return nil, refuse(http.StatusBadRequest, fmt.Sprintf("step is 0 to %d", max(len(steps), 1)-1))
		}
	}
	d := replayData{Match: m.ID, Game: h.Game, Bots: h.Bots, Seat: seat, Step: step, Steps: len(steps), Opening: opening,
		Prev: max(step-1, 0), Next: min(step+1, max(len(steps)-1, 0)), Last: max(len(steps)-1, 0)}
	for i := range h.Players {
		d.Seats = append(d.Seats, i)
	}
	if len(steps) > 0 {
		d.Current = &steps[step]
		d.Past = steps[:step]
	}
	if step == len(steps)-1 && rep.Result != nil {
		for i := range rep.Result.Place {
			d.Result = append(d.Result, fmt.Sprintf("place %d: seat %d %s (score %d)", rep.Result.Place[i]+1, i, h.Bots[i], rep.Result.Score[i]))
		}
	}
	return d, nil
}

// steps re-simulates rep and describes each decision as seen by seat (-1: all).
func (s *Service) steps(rep *arena.Replay, seat int) ([]stepView, []string, error) {
	h := rep.Header
	sees := func(e engine.Event) bool { return seat < 0 || e.Audience.Sees(seat) }
	g0, err := engine.NewWith(h.Game, h.Seed, h.Players, h.Options)
	if err != nil {
		return nil, nil, err
	}
	var opening []string
	for _, e := range g0.Log() {
		if sees(e) {
			opening = append(opening, g0.DescribeEvent(e))
		}
	}
	endings := map[int][]string{}
	for _, e := range rep.Endings {
		endings[e.N] = append(endings[e.N], fmt.Sprintf("seat %d (%s) forfeits: %s %s", e.Seat, h.Bots[e.Seat], e.Ending, e.Detail))
	}
	// The options of a decision are listed before it is applied; Resimulate reports
	// after, so each step lists the options of the next decision.
	describe := func(g engine.Game) []string {
		if g.Terminal() {
			return nil
		}
		var out []string
		for _, o := range g.Options() {
			out = append(out, g.Describe(o))
		}
		return out
	}
	next := describe(g0)
	var steps []stepView
	_, err = arena.Resimulate(rep, func(g engine.Game, evs []engine.Event, d arena.Record) {
		st := stepView{N: d.N, Seat: d.Seat, Bot: h.Bots[d.Seat], Ms: strconv.FormatFloat(float64(d.Micros)/1000, 'f', 2, 64),
			Forfeit: d.Forfeit, Endings: endings[d.N]}
		if seat < 0 || seat == d.Seat {
			st.Text = d.Text
			for i, o := range next {
				st.Options = append(st.Options, optionView{Text: o, Chosen: i == d.Choice})
			}
		}
		for _, e := range evs {
			if sees(e) {
				st.Events = append(st.Events, g.DescribeEvent(e))
			}
		}
		steps = append(steps, st)
		next = describe(g)
	})
	return steps, opening, err
}
