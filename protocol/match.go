//go:build linux

package protocol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/botpb"
)

// StartRequest is the message that tells a bot a match starts: m, and nothing else.
func StartRequest(m bot.Start) *botpb.StartRequest {
	return &botpb.StartRequest{MatchId: m.MatchID, Game: m.Game, Seat: int32(m.Seat), Players: int32(m.Players),
		Seed: m.Seed, DecisionDeadlineUs: m.Decision.Microseconds(), BankUs: m.Bank.Microseconds(), Options: m.Options}
}

// EndRequest is the message that tells a bot how a match ended.
func EndRequest(e bot.End) *botpb.EndRequest {
	r := &botpb.EndRequest{MatchId: e.MatchID, Seat: int32(e.Seat), Adjudicated: e.Adjudicated}
	for s := range e.Place {
		r.Place = append(r.Place, int32(e.Place[s]))
	}
	for s := range e.Score {
		r.Score = append(r.Score, int32(e.Score[s]))
	}
	for s := range e.Endings {
		r.Endings = append(r.Endings, botpb.Ending(e.Endings[s]))
	}
	return r
}

// StartMatch tells the bot a match starts and opens the seat's decision stream; the
// seat's questions are built from the game by SeatRequests.
func (p *Process) StartMatch(ctx context.Context, m bot.Start, timeout time.Duration) (bot.Seat, error) {
	codec, err := CodecFor(m.Game)
	if err != nil {
		return nil, err
	}
	s, err := p.OpenSeat(ctx, StartRequest(m), timeout)
	if err != nil {
		return nil, callError(err)
	}
	return &matchSeat{s: s, wire: NewSeatRequests(codec, m.MatchID, m.Seat)}, nil
}

// EndMatch tells the bot how a match ended, waiting at most EndMatchTimeout.
func (p *Process) EndMatch(e bot.End) error {
	ctx, cancel := context.WithTimeout(context.Background(), EndMatchTimeout)
	defer cancel()
	_, err := p.bot.EndMatch(ctx, EndRequest(e))
	return callError(err)
}

// matchSeat is a Seat with the builder of its questions.
type matchSeat struct {
	s    *Seat
	wire *SeatRequests
}

func (m *matchSeat) Decide(g engine.Game, a bot.Ask) (int, time.Duration, error) {
	req, err := m.wire.Next(g)
	if err != nil {
		return -1, 0, err
	}
	req.BankUs, req.DeadlineUs = a.Bank.Microseconds(), a.Deadline.Microseconds()
	rep, took, err := m.s.Decide(req, a.Wait)
	if err != nil {
		return -1, took, callError(err)
	}
	return int(rep.Choice), took, nil
}

func (m *matchSeat) Close(end *bot.End, timeout time.Duration) error {
	if end == nil {
		return m.s.Close(nil, timeout)
	}
	return callError(m.s.Close(EndRequest(*end), timeout))
}

// callError turns a failed call into package bot's terms: a missed deadline, a reply
// to another question, or what the bot sent (escaped before it can reach a terminal),
// with whether the line itself broke.
func callError(err error) error {
	switch {
	case err == nil, errors.Is(err, ErrDeadline), errors.Is(err, ErrMalformed):
		return err
	case status.Code(err) == codes.DeadlineExceeded:
		return fmt.Errorf("%w: %v", ErrDeadline, err)
	}
	broken := false
	switch status.Code(err) {
	case codes.Unavailable, codes.Canceled, codes.Unknown:
		broken = true
	}
	if st, ok := status.FromError(err); ok {
		return &bot.CallError{Broken: broken, Detail: fmt.Sprintf("%s: %s", st.Code(), Printable(st.Message()))}
	}
	return &bot.CallError{Broken: broken, Detail: Printable(err.Error())}
}
