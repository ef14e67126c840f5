package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
)

// writeSeat steps through one seat's game in a replay: at each of its decisions, what
// it saw since its previous one, its view, its options in words, its choice and the time
// it took (or that the fallback chose for a forfeited seat), and its ending. It
// re-simulates as it goes, so a replay that does not reproduce fails. Decisions of the
// game before from are passed over.
func writeSeat(w io.Writer, rep *arena.Replay, seat, from int) error {
	h := rep.Header
	if seat < 0 || seat >= h.Players {
		return fmt.Errorf("--seat %d: the match has seats 0 to %d", seat, h.Players-1)
	}
	fmt.Fprintf(w, "match %s: %s, seed %d, %d players; seat %d is %s\n", h.Match, h.Game, h.Seed, h.Players, seat, h.Bots[seat])
	g, err := engine.New(h.Game, h.Seed, h.Players)
	if err != nil {
		return err
	}
	s := seatStepper{w: w, seat: seat, from: from, endings: map[int][]arena.Record{}}
	for _, e := range rep.Endings {
		if e.Seat == seat {
			s.endings[e.N] = append(s.endings[e.N], e)
		}
	}
	s.before(g, g.Log())
	end, err := arena.Resimulate(rep, func(g engine.Game, evs []engine.Event, d arena.Record) {
		s.decided(d)
		s.before(g, evs)
	})
	if err != nil {
		return err
	}
	for _, l := range s.sawLines(end, nil, "saw after its last decision") {
		fmt.Fprintln(w, l)
	}
	r := rep.Result
	fmt.Fprintf(w, "result: seat %d placed %d of %d (score %d)", seat, r.Place[seat]+1, h.Players, r.Score[seat])
	if r.Adjudicated {
		fmt.Fprint(w, ", adjudicated")
	}
	fmt.Fprintf(w, "; %d decisions of its own in %d\n", s.count, len(rep.Decisions))
	return nil
}

// seatStepper keeps what the seat saw and what it was asked between two steps of the
// re-simulation.
type seatStepper struct {
	w       io.Writer
	seat    int
	from    int // the first decision of the game to print
	count   int
	endings map[int][]arena.Record
	seen    []engine.Event
	asked   []string // the pending decision's view and options, when the seat is to move
}

// before is called with the state before the next decision and the events since the
// previous step.
func (s *seatStepper) before(g engine.Game, evs []engine.Event) {
	s.seen = engine.EventsFor(s.seen, evs, s.seat, 0)
	s.asked = s.asked[:0]
	if g.Terminal() || g.ToMove() != s.seat {
		return
	}
	s.asked = s.sawLines(g, s.asked, "saw")
	s.asked = append(s.asked, "  view:")
	for _, l := range strings.Split(strings.TrimRight(g.View(s.seat).String(), "\n"), "\n") {
		s.asked = append(s.asked, "    "+l)
	}
	s.asked = append(s.asked, "  options:")
	for i, o := range g.Options() {
		s.asked = append(s.asked, fmt.Sprintf("    %3d  %s", i, g.Describe(o)))
	}
}

// sawLines appends the events the seat saw since its previous decision, and forgets them.
func (s *seatStepper) sawLines(g engine.Game, out []string, title string) []string {
	if len(s.seen) == 0 {
		return out
	}
	out = append(out, "  "+title+":")
	for _, e := range s.seen {
		out = append(out, "    "+g.DescribeEvent(e))
	}
	s.seen = s.seen[:0]
	return out
}

// decided prints the seat's decision d with what it was asked.
func (s *seatStepper) decided(d arena.Record) {
	if d.N < s.from {
		if d.Seat == s.seat {
			s.count++
		}
		return
	}
	for _, e := range s.endings[d.N] {
		fmt.Fprintf(s.w, "** seat %d forfeits at decision %d: %s %s\n", s.seat, d.N, e.Ending, e.Detail)
	}
	if d.Seat != s.seat {
		return
	}
	s.count++
	fmt.Fprintf(s.w, "decision %d (the seat's %s)\n", d.N, ordinal(s.count))
	for _, l := range s.asked {
		fmt.Fprintln(s.w, l)
	}
	how := strconv.FormatFloat(float64(d.Micros)/1000, 'f', 2, 64) + " ms"
	if d.Forfeit {
		how = "played by the fallback: the seat had forfeited"
	}
	fmt.Fprintf(s.w, "  chose %d: %s (%s)\n", d.Choice, d.Text, how)
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
