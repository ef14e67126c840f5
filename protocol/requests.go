package protocol

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/botpb"
)

// SeatRequests builds the DecideRequests one seat of one match receives: its view,
// the events it saw since its previous decision, its options and a count of its own
// decisions. That is everything a bot learns of a game, and it is made from what the
// engine lets the seat see and nothing else (the wire no-leak tests check it byte for
// byte); the host adds only the seat's own clock.
type SeatRequests struct {
	codec  Codec
	seat   int
	asked  uint32
	cursor int
	events []engine.Event
	req    botpb.DecideRequest
}

// NewSeatRequests starts the requests of one seat of a match.
func NewSeatRequests(c Codec, matchID string, seat int) *SeatRequests {
	return &SeatRequests{codec: c, seat: seat, req: botpb.DecideRequest{MatchId: matchID, Seat: int32(seat)}}
}

// Next is the request for the seat's next decision in g, whose turn it must be. The
// request is reused by the next call.
func (w *SeatRequests) Next(g engine.Game) (*botpb.DecideRequest, error) {
	if g.ToMove() != w.seat {
		return nil, fmt.Errorf("seat %d asked while seat %d is to move", w.seat, g.ToMove())
	}
	view, err := w.codec.EncodeView(g.View(w.seat))
	if err != nil {
		return nil, err
	}
	log := g.Log()
	w.events = engine.EventsFor(w.events[:0], log, w.seat, w.cursor)
	w.cursor = len(log)
	w.asked++
	w.req.SeatDecision, w.req.View = w.asked, view
	w.req.Events = AppendEvents(w.req.Events[:0], w.events)
	w.req.Options = AppendOptions(w.req.Options[:0], g.Options())
	w.req.BankUs, w.req.DeadlineUs = 0, 0
	return &w.req, nil
}
