package protocol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arena-games/arena/protocol/botpb"
)

// ErrDeadline is returned by Seat.Decide when the bot did not answer in time.
var ErrDeadline = errors.New("no answer before the deadline")

// ErrMalformed wraps an answer that does not belong to the question (another match or
// decision).
var ErrMalformed = errors.New("malformed reply")

// Seat is the host's line to one bot for one seat of one match: StartMatch, then a
// stream that carries the seat's decisions. One decision is in flight at a time.
type Seat struct {
	proc    *Process
	matchID string
	seat    int32
	stream  botpb.Bot_MatchClient
	cancel  context.CancelFunc
	replies chan reply
	timer   *time.Timer
	broken  bool
}

type reply struct {
	msg *botpb.DecideReply
	err error
}

// OpenSeat tells the bot its match started (waiting at most timeout) and opens the
// seat's decision stream.
func (p *Process) OpenSeat(ctx context.Context, start *botpb.StartRequest, timeout time.Duration) (*Seat, error) {
	sctx, cancel := context.WithTimeout(ctx, timeout)
	_, err := p.Bot.StartMatch(sctx, start)
	cancel()
	if err != nil {
		return nil, err
	}
	mctx, mcancel := context.WithCancel(ctx)
	stream, err := p.Bot.Match(mctx)
	if err != nil {
		mcancel()
		return nil, err
	}
	s := &Seat{proc: p, matchID: start.MatchId, seat: start.Seat, stream: stream, cancel: mcancel,
		replies: make(chan reply, 1), timer: time.NewTimer(time.Hour)}
	s.timer.Stop()
	go s.read()
	return s, nil
}

// read forwards the bot's replies, one per question; it ends with the stream.
func (s *Seat) read() {
	defer close(s.replies)
	for {
		m, err := s.stream.Recv()
		if err != nil {
			// The stream's context is done too once the bot ended the stream with an
			// error status; the error (say, a panic's message) must still reach Decide.
			// One question is in flight at a time, so the buffer has room.
			select {
			case s.replies <- reply{nil, err}:
			default:
			}
			return
		}
		select {
		case s.replies <- reply{m, nil}:
		case <-s.stream.Context().Done():
			return
		}
	}
}

// Decide sends one question and waits at most timeout for its answer. It returns the
// answer and the time from sending to receiving. After any error the seat is broken:
// its stream is cancelled and later calls fail at once.
func (s *Seat) Decide(req *botpb.DecideRequest, timeout time.Duration) (*botpb.DecideReply, time.Duration, error) {
	if s.broken {
		return nil, 0, errors.New("the seat's stream is broken")
	}
	start := time.Now()
	if err := s.stream.Send(req); err != nil {
		s.breakSeat()
		// The real cause comes from Recv.
		if r, ok := <-s.replies; ok && r.err != nil {
			err = r.err
		}
		return nil, time.Since(start), err
	}
	s.timer.Reset(timeout)
	select {
	case r, ok := <-s.replies:
		elapsed := time.Since(start)
		s.timer.Stop()
		if !ok {
			s.breakSeat()
			return nil, elapsed, errors.New("the seat's stream is closed")
		}
		if r.err != nil {
			s.breakSeat()
			return nil, elapsed, r.err
		}
		if r.msg.MatchId != req.MatchId || r.msg.SeatDecision != req.SeatDecision {
			s.breakSeat()
			return nil, elapsed, fmt.Errorf("%w: answer for match %q decision %d to match %q decision %d",
				ErrMalformed, r.msg.MatchId, r.msg.SeatDecision, req.MatchId, req.SeatDecision)
		}
		return r.msg, elapsed, nil
	case <-s.timer.C:
		s.breakSeat()
		return nil, time.Since(start), ErrDeadline
	}
}

func (s *Seat) breakSeat() {
	s.broken = true
	s.cancel()
}

// Close ends the decision stream and tells the bot how the match ended (waiting at
// most timeout; a bot that does not listen is not waited for longer).
func (s *Seat) Close(end *botpb.EndRequest, timeout time.Duration) error {
	if !s.broken {
		_ = s.stream.CloseSend()
	}
	defer s.cancel()
	if end == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.proc.Bot.EndMatch(ctx, end)
	return err
}
