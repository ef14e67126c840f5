package ladder

import (
	"fmt"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
)

// forfeitCount follows each bot's recorded games and its timeouts and crashes among
// them, across blocks and runs (each block is an arena run of its own, too short to
// judge a bot by), counting only games after its last reinstatement.
type forfeitCount struct {
	share      float64
	played     map[int64]int
	forfeits   map[int64]int
	last       map[int64]string
	countAfter map[int64]int64
	suspended  map[int64]bool
}

func newForfeitCount(share float64, sus []store.Suspension) *forfeitCount {
	f := &forfeitCount{share: share, played: map[int64]int{}, forfeits: map[int64]int{}, last: map[int64]string{},
		countAfter: map[int64]int64{}, suspended: map[int64]bool{}}
	for _, x := range sus {
		f.countAfter[x.Bot] = x.CountAfter
		if x.Holds() {
			f.suspended[x.Bot] = true
		}
	}
	return f
}

// add counts a recorded game and returns the bots it takes past their share that
// were not suspended yet (and marks them suspended).
func (f *forfeitCount) add(m store.Match) []int64 {
	var out []int64
	for _, s := range m.Seats {
		if f.addSeat(m, s) {
			out = append(out, s.Bot)
		}
	}
	return out
}

// addSeat counts one seat of a recorded game and reports whether it takes its bot
// past its share.
func (f *forfeitCount) addSeat(m store.Match, s store.Seat) bool {
	if m.ID <= f.countAfter[s.Bot] {
		return false
	}
	f.played[s.Bot]++
	if s.Ending != arena.Timeout.String() && s.Ending != arena.Crash.String() {
		return false
	}
	f.forfeits[s.Bot]++
	f.last[s.Bot] = fmt.Sprintf("%s in block %d rotation %d", s.Ending, m.Block, m.Rotation)
	if !f.suspended[s.Bot] && arena.PastForfeitShare(f.forfeits[s.Bot], f.played[s.Bot], f.share) {
		f.suspended[s.Bot] = true
		return true
	}
	return false
}

// restart counts bot's games afresh from those after countAfter (a reinstatement).
func (f *forfeitCount) restart(bot, countAfter int64) {
	f.countAfter[bot] = countAfter
	delete(f.played, bot)
	delete(f.forfeits, bot)
	delete(f.last, bot)
}

// reason says why bot was suspended, for people.
func (f *forfeitCount) reason(bot int64) string {
	return fmt.Sprintf("timed out or crashed in %d of its %d games, more than the %.0f%% allowed (--max-forfeit-share); last: %s",
		f.forfeits[bot], f.played[bot], 100*f.share, f.last[bot])
}
