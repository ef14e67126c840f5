package engine

import (
	"errors"
	"fmt"
)

// NoSeat is what ToMove returns once a game is over.
const NoSeat = -1

// MaxSeats is the most seats any game of the arena seats; event audiences are bit sets
// of this width.
const MaxSeats = 8

// Option is one legal choice, in a compact form every game shares so that options can be
// listed into a reused buffer without allocating. Its meaning belongs to the game: Kind
// is a game-defined action and A..D its arguments (a card kind, a seat, a position, a
// colour...). Game.Describe puts an option into words; each game package documents the
// encoding and offers typed accessors.
type Option struct {
	Kind       uint8
	A, B, C, D int16
}

// Event is one entry of a game's log: something that happened, seen by the seats in
// Audience. Like Option its fields are game-defined; Game.DescribeEvent puts it into
// words.
type Event struct {
	Kind     uint8
	Audience Audience
	Seat     int8 // the seat the event is about, or NoSeat
	A, B, C  int16
}

// Audience is the set of seats that see an event, one bit per seat.
type Audience uint8

// Everyone is the audience of a public event.
const Everyone Audience = 0xff

// Only returns the audience made of the given seats.
func Only(seats ...int) Audience {
	var a Audience
	for _, s := range seats {
		a |= 1 << uint(s)
	}
	return a
}

// Sees reports whether seat is in the audience.
func (a Audience) Sees(seat int) bool { return seat >= 0 && seat < MaxSeats && a&(1<<uint(seat)) != 0 }

// View is what one seat may know of a game at one moment: a value of the game's own
// view type (for example *ivanhoe.View). Two states that differ only in what the seat
// cannot know give that seat equal views.
type View interface {
	// ViewSeat is the seat the view belongs to.
	ViewSeat() int
	// String renders the view for people.
	String() string
}

// Result ranks every seat at the end of a game.
type Result struct {
	// Place of each seat: 0 is first. Tied seats share a place and the next place is
	// skipped (two seats at 0 are followed by 2).
	Place []int
	// Score of each seat in the game's own unit (tokens, points, gems), for reports.
	Score []int
	// Adjudicated is set when the decision bound ended the game.
	Adjudicated bool
}

// Winners returns the seats in first place.
func (r Result) Winners() []int {
	var w []int
	for s, p := range r.Place {
		if p == 0 {
			w = append(w, s)
		}
	}
	return w
}

// ErrIllegal is wrapped by every error Apply returns for a choice that is not one of the
// current legal options.
var ErrIllegal = errors.New("illegal option")

// Game is a game in progress. Methods never panic; a Game is not safe for concurrent
// use (Clone it for another goroutine).
type Game interface {
	// Name is the registry name of the game ("ivanhoe").
	Name() string
	// Players is the number of seats.
	Players() int
	// ToMove is the seat that owes the pending decision, or NoSeat when Terminal.
	ToMove() int
	// Options lists the legal options of the pending decision in a deterministic order.
	// The slice belongs to the game and is valid until the next Apply; it is empty only
	// when the game is over.
	Options() []Option
	// Apply plays Options()[i]. Anything else returns an error wrapping ErrIllegal and
	// leaves the state unchanged.
	Apply(i int) error
	// Fallback is the index of the option played for a seat that has forfeited (timed
	// out, crashed, lied): the game's documented, cautious default.
	Fallback() int
	// Describe puts an option of the pending decision into words.
	Describe(o Option) string
	// View is what seat may know now.
	View(seat int) View
	// Log is every event so far, in order, for every audience. Callers filter it with
	// Event.Audience and must not modify it.
	Log() []Event
	// DescribeEvent puts an event of the log into words.
	DescribeEvent(e Event) string
	// Terminal reports whether the game is over.
	Terminal() bool
	// Result is the final ranking; it is only meaningful when Terminal.
	Result() Result
	// Decisions is the number of options applied so far.
	Decisions() int
	// Clone returns an independent copy that continues exactly as this game would.
	Clone() Game
	// Hash is a digest of the whole state (hidden parts and the random source included):
	// equal states hash equal.
	Hash() uint64
}

// EventsFor returns the events of log from index from on that seat is in the audience
// of, appended to buf.
func EventsFor(buf []Event, log []Event, seat, from int) []Event {
	for i := from; i < len(log); i++ {
		if log[i].Audience.Sees(seat) {
			buf = append(buf, log[i])
		}
	}
	return buf
}

// Find returns the index of o among the current options of g, for replays and bots that
// remember options rather than indices.
func Find(g Game, o Option) (int, bool) {
	for i, x := range g.Options() {
		if x == o {
			return i, true
		}
	}
	return -1, false
}

// IllegalIndex is the error Apply returns for an index outside the options.
func IllegalIndex(i, n int) error {
	if n == 0 {
		return fmt.Errorf("%w: option %d: the game is over", ErrIllegal, i)
	}
	return fmt.Errorf("%w: option %d: the pending decision has options 0..%d", ErrIllegal, i, n-1)
}
