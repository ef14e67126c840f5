package protocol

import (
	"time"

	"github.com/arena-games/arena/engine"
)

// Timed is implemented by policies that budget their time, such as search bots: the
// SDK calls ChooseBy instead of Choose with the moment the arena's deadline for this
// decision passes (as the bot's clock reads it, from when the request arrived). A
// policy must answer well before it: the answer still has to travel back.
type Timed interface {
	ChooseBy(deadline time.Time, view engine.View, events []engine.Event, options []engine.Option) int
}
