package protocol

import (
	"time"

	"github.com/arena-games/arena/engine"
)

// Clock is the time a decision may take, as the bot's clock reads it from when the
// request arrived.
type Clock struct {
	// Deadline is when the arena stops waiting for this decision: the per-decision
	// limit or the end of the seat's bank, whichever comes first.
	Deadline time.Time
	// Bank is what is left of the seat's time bank for the whole match.
	Bank time.Duration
}

// Timed is implemented by policies that budget their time, such as search bots: the
// SDK calls ChooseWithin instead of Choose. A policy must answer well before the
// deadline (the answer still has to travel back) and should spend its bank so that it
// lasts the match.
type Timed interface {
	ChooseWithin(c Clock, view engine.View, events []engine.Event, options []engine.Option) int
}
