//go:build linux

package protocol

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/botpb"
)

// ErrDeadline is returned by Seat.Decide when the bot did not answer in time (package
// bot's).
var ErrDeadline = bot.ErrDeadline

// ErrMalformed wraps an answer that does not belong to the question (package bot's).
var ErrMalformed = bot.ErrMalformed

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
	// arrived is when the reader last received a reply (since epoch, on the monotonic
	// clock): it is written before
	// the reply is handed over, so an expired timer can tell a reply that arrived in
	// time but is not yet handed over from one that did not arrive.
	arrived atomic.Int64
	// sending is set while a question is being sent; guard cuts a send that outlasts
	// the decision's deadline by cancelling the stream.
	sending atomic.Bool
	cut     atomic.Bool
	guard   *time.Timer
}

// epoch is the origin of Seat.arrived.
var epoch = time.Now()

type reply struct {
	msg *botpb.DecideReply
	err error
	at  time.Time // when the reader received it
}

// OpenSeat tells the bot its match started (waiting at most timeout) and opens the
// seat's decision stream.
func (p *Process) OpenSeat(ctx context.Context, start *botpb.StartRequest, timeout time.Duration) (*Seat, error) {
	sctx, cancel := context.WithTimeout(ctx, timeout)
	_, err := p.bot.StartMatch(sctx, start)
	cancel()
	if err != nil {
		return nil, err
	}
	mctx, mcancel := context.WithCancel(ctx)
	stream, err := p.bot.Match(mctx)
	if err != nil {
		mcancel()
		return nil, err
	}
	s := &Seat{proc: p, matchID: start.MatchId, seat: start.Seat, stream: stream, cancel: mcancel,
		replies: make(chan reply, 1), timer: time.NewTimer(time.Hour)}
	s.timer.Stop()
	s.guard = time.AfterFunc(time.Hour, func() {
		if s.sending.Load() {
			s.cut.Store(true)
			mcancel()
		}
	})
	s.guard.Stop()
	go s.read()
	return s, nil
}

// read forwards the bot's replies, one per question; it ends with the stream.
func (s *Seat) read() {
	defer close(s.replies)
	for {
		m, err := s.stream.Recv()
		at := time.Now()
		s.arrived.Store(int64(at.Sub(epoch)))
		if err != nil {
			// The stream's context is done too once the bot ended the stream with an
			// error status; the error (say, a panic's message) must still reach Decide.
			// One question is in flight at a time, so the buffer has room.
			select {
			case s.replies <- reply{nil, err, at}:
			default:
			}
			return
		}
		select {
		case s.replies <- reply{m, nil, at}:
		case <-s.stream.Context().Done():
			return
		}
	}
}

// Decide sends one question and waits at most timeout, from before the send, for its
// answer. It returns the answer and the time from sending to the reader receiving it.
// The verdict goes by when the reader received the answer, not by which of the answer
// and the timer this goroutine sees first: an answer received before the deadline is
// never a timeout, however late this goroutine runs. After any error the seat is
// broken: its stream is cancelled and later calls fail at once.
func (s *Seat) Decide(req *botpb.DecideRequest, timeout time.Duration) (*botpb.DecideReply, time.Duration, error) {
	if s.broken {
		return nil, 0, errors.New("the seat's stream is broken")
	}
	start := time.Now()
	deadline := start.Add(timeout)
	s.timer.Reset(timeout)
	defer s.timer.Stop()
	if err := s.send(req, timeout); err != nil {
		s.breakSeat()
		if s.cut.Load() {
			return nil, time.Since(start), ErrDeadline
		}
		// The real cause comes from Recv.
		if r, ok := <-s.replies; ok && r.err != nil {
			err = r.err
		}
		return nil, time.Since(start), err
	}
	select {
	case r, ok := <-s.replies:
		return s.verdict(req, r, ok, start, deadline)
	case <-s.timer.C:
	}
	// The timer fired. An answer the reader received in time counts, whether it is
	// already handed over or about to be.
	if at := time.Duration(s.arrived.Load()); at >= start.Sub(epoch) && at <= deadline.Sub(epoch) {
		r, ok := <-s.replies
		return s.verdict(req, r, ok, start, deadline)
	}
	select {
	case r, ok := <-s.replies:
		return s.verdict(req, r, ok, start, deadline)
	default:
	}
	// A timer seen late means this process did not run for that long, and its reader
	// could not receive either: an answer the reader receives within as long again
	// (at most one more timeout) counts as in time, so the arena's own delays are never
	// charged to the bot.
	seen := time.Now()
	if late := min(seen.Sub(deadline), timeout); late > lateSlack {
		s.timer.Reset(late)
		select {
		case r, ok := <-s.replies:
			return s.verdict(req, r, ok, start, seen.Add(late))
		case <-s.timer.C:
		}
	}
	s.breakSeat()
	return nil, time.Since(start), ErrDeadline
}

// lateSlack is how late a timer may be seen before the arena counts the delay as its
// own: below it, the delay is the runtime's usual timer resolution.
const lateSlack = time.Millisecond

// send sends the question; past timeout the stream is cancelled, so that a send the
// bot holds up (by not reading) is bounded by the decision's deadline too.
func (s *Seat) send(req *botpb.DecideRequest, timeout time.Duration) error {
	s.sending.Store(true)
	s.guard.Reset(timeout)
	err := s.stream.Send(req)
	s.sending.Store(false)
	s.guard.Stop()
	return err
}

// verdict judges a reply by when the reader received it.
func (s *Seat) verdict(req *botpb.DecideRequest, r reply, ok bool, start, deadline time.Time) (*botpb.DecideReply, time.Duration, error) {
	if !ok {
		s.breakSeat()
		return nil, time.Since(start), errors.New("the seat's stream is closed")
	}
	elapsed := r.at.Sub(start)
	switch {
	case r.at.After(deadline):
		s.breakSeat()
		return nil, elapsed, ErrDeadline
	case r.err != nil:
		s.breakSeat()
		return nil, elapsed, r.err
	case r.msg.MatchId != req.MatchId || r.msg.SeatDecision != req.SeatDecision:
		s.breakSeat()
		return nil, elapsed, fmt.Errorf("%w: answer for match %q decision %d to match %q decision %d",
			ErrMalformed, r.msg.MatchId, r.msg.SeatDecision, req.MatchId, req.SeatDecision)
	}
	return r.msg, elapsed, nil
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
	s.guard.Stop()
	defer s.cancel()
	if end == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.proc.bot.EndMatch(ctx, end)
	return err
}
