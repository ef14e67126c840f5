package watch

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena"
)

// WriteSeat steps through one seat's game in a replay: at each of its decisions, what
// it saw since its previous one, its view, its options in words, its choice and the time
// it took (or that the fallback chose for a forfeited seat), and its ending. The steps
// are the seat's point of view as the ladder's game page shows it (Steps), so a
// replay that does not reproduce fails. Decisions of the game before from are passed
// over.
func WriteSeat(w io.Writer, rep *arena.Replay, seat, from int) error {
	h := rep.Header
	if seat < 0 || seat >= h.Players {
		return fmt.Errorf("seat %d: the match has seats 0 to %d", seat, h.Players-1)
	}
	g, err := Steps(rep, seat)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "match %s: %s, seed %d, %d players; seat %d is %s\n", h.Match, h.Game, h.Seed, h.Players, seat, h.Bots[seat])
	count := 0
	var saw []string
	for i, st := range g.Steps {
		saw = append(saw, st.Happened...)
		for _, f := range st.Forfeits {
			if f.Seat == seat && i >= from {
				fmt.Fprintf(w, "** seat %d forfeits at decision %d: %s %s\n", seat, i, f.Ending, f.Detail)
			}
		}
		if st.Asked == nil {
			continue
		}
		count++
		if i >= from {
			writeDecision(w, st, count, saw)
		}
		saw = saw[:0]
	}
	writeLines(w, "saw after its last decision", saw)
	r := rep.Result
	fmt.Fprintf(w, "result: seat %d placed %d of %d (score %d)", seat, r.Place[seat]+1, h.Players, r.Score[seat])
	if r.Adjudicated {
		fmt.Fprint(w, ", adjudicated")
	}
	fmt.Fprintf(w, "; %d decisions of its own in %d\n", count, len(rep.Decisions))
	return nil
}

// writeDecision prints the seat's count-th decision, at step st, with what it saw
// since its previous one.
func writeDecision(w io.Writer, st Step, count int, saw []string) {
	fmt.Fprintf(w, "decision %d (the seat's %s)\n", st.N, Ordinal(count))
	writeLines(w, "saw", saw)
	writeLines(w, "view", strings.Split(strings.TrimRight(st.Text, "\n"), "\n"))
	fmt.Fprintln(w, "  options:")
	for i, o := range st.Asked.Options {
		fmt.Fprintf(w, "    %3d  %s\n", i, o)
	}
	how := st.Asked.Ms + " ms"
	if st.Asked.Fallback {
		how = "played by the fallback: the seat had forfeited"
	}
	fmt.Fprintf(w, "  chose %d: %s (%s)\n", st.Asked.Chosen, st.Asked.Options[st.Asked.Chosen], how)
}

// writeLines prints a titled block of lines, or nothing when there are none.
func writeLines(w io.Writer, title string, lines []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s:\n", title)
	for _, l := range lines {
		fmt.Fprintln(w, "    "+l)
	}
}

// Ordinal is n in words as a place or a count: 1st, 2nd, 3rd, 4th, 11th, 21st.
func Ordinal(n int) string {
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
