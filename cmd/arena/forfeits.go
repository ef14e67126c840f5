package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/protocol"
)

// shownForfeits is how many forfeits of each kind a run explains; the table counts
// them all.
const shownForfeits = 3

// forfeitNotes explains a run's first forfeits of each kind where an author looks
// first, as they happen: the seat, the match, the decision, what happened in words, and
// the command that shows that decision in the replay.
type forfeitNotes struct {
	w    io.Writer
	tty  bool // the progress bar's line is cleared first
	mu   sync.Mutex
	seen map[arena.Ending]int
}

func newForfeitNotes(w io.Writer, tty bool) *forfeitNotes {
	return &forfeitNotes{w: w, tty: tty, seen: map[arena.Ending]int{}}
}

func (f *forfeitNotes) match(m *arena.MatchResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s, sr := range m.Seats {
		if sr.Ending == arena.OK || sr.At == nil {
			continue
		}
		f.seen[sr.Ending]++
		switch n := f.seen[sr.Ending]; {
		case n > shownForfeits:
			continue
		case n == shownForfeits:
			defer fmt.Fprintf(f.w, "  (further %s forfeits are counted in the table, not shown)\n", sr.Ending)
		}
		if f.tty {
			fmt.Fprint(f.w, "\r\033[K")
		}
		fmt.Fprintf(f.w, "forfeit: %s, seat %d of %s, decision %d: %s: %s\n",
			sr.Bot, s, m.ID, *sr.At, sr.Ending, protocol.Printable(sr.Detail))
		if m.Replay != "" {
			fmt.Fprintf(f.w, "  see it: arena replay %s --seat %d --at %d\n", m.Replay, s, *sr.At)
		}
	}
}
