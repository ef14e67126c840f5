package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
	"github.com/arena-games/arena/protocol/sandbox"
)

// The layers between the bare stream and the arena's decision, each measured on the
// same requests (real ones, from random two-player Ivanhoe games), so that the table
// can say which part of a decision's cost each adds:
//   - structured: the bare process, but the real DecideRequest and DecideReply messages
//     (proto encoding and decoding of the structured view);
//   - sdk in the bare process: the Go SDK's Bot service with the random policy, served
//     by the bare process beside its own services: the SDK's code on the same
//     transport, in the same program;
//   - sdk: the arena's own bot process (`arena serve-bot random`, no sandbox) on a raw
//     Match stream: the Go SDK's decoding of the view and the policy;
//   - seat: the same through protocol.Seat (the clock's timers and reader goroutine);
//   - sandbox: the same with the default sandbox, as `arena match` starts its bots;
//   - two seats: two such bots, each asked its own seat's questions in the order of
//     play, as a match alternates between them (the runner's layer is measured
//     against this one: a bot asked after the other's turn was idle meanwhile).

var structuredMethod = "/arena.bench.bare.Echo/Structured"

func init() {
	bareService.Streams = append(bareService.Streams, grpc.StreamDesc{StreamName: "Structured",
		Handler: serveStructured, ServerStreams: true, ClientStreams: true})
}

// registerSDK serves the Go SDK's Bot service (the random policy) in the bare process.
func registerSDK(s *grpc.Server) {
	botpb.RegisterBotServer(s, protocol.NewBotServer(func(m protocol.Match) engine.Policy { return random.New(m.Seed) }))
}

// sdkInBare is the SDK's service in the bare process, reached on the bare connection.
func sdkInBare(b *bareProc) *botLayer {
	return &botLayer{proc: protocol.Attach(b.conn)}
}

// serveStructured answers each DecideRequest with a DecideReply, as a bot does, but
// without looking at the view.
func serveStructured(_ any, st grpc.ServerStream) error {
	in, out := new(botpb.DecideRequest), new(botpb.DecideReply)
	for {
		if err := st.RecvMsg(in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		out.MatchId, out.SeatDecision, out.Choice = in.MatchId, in.SeatDecision, int32(len(in.Options)-1)
		if err := st.SendMsg(out); err != nil {
			return err
		}
	}
}

// structuredRoundTrips sends the requests on one stream of the structured method.
func structuredRoundTrips(b *bareProc, reqs []*botpb.DecideRequest) (time.Duration, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs, err := b.conn.NewStream(ctx, &bareService.Streams[1], structuredMethod)
	if err != nil {
		return 0, err
	}
	defer func() { _ = cs.CloseSend() }()
	rep := new(botpb.DecideReply)
	trip := func(r *botpb.DecideRequest) error {
		if err := cs.SendMsg(r); err != nil {
			return err
		}
		return cs.RecvMsg(rep)
	}
	return timeEach(reqs, trip)
}

// timeEach runs trip on every request after one untimed warm-up, and returns the wall
// time per request.
func timeEach(reqs []*botpb.DecideRequest, trip func(*botpb.DecideRequest) error) (time.Duration, error) {
	if err := trip(reqs[0]); err != nil {
		return 0, err
	}
	start := time.Now()
	for _, r := range reqs {
		if err := trip(r); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(len(reqs)), nil
}

// botLayer is one of the arena's own bot processes.
type botLayer struct {
	proc    *protocol.Process
	matches int
}

// launchBot starts the built-in random bot as the arena does: through arena-sandbox
// when it lies beside the arena, else through the arena itself.
func launchBot(arenaBin string, level sandbox.Level) (*botLayer, error) {
	bot, helper := arenaBin, beside(arenaBin, "arena-sandbox")
	cfg := protocol.LaunchConfig{Path: bot, Args: []string{"serve-bot", "random"},
		Sandbox: sandbox.Config{Level: level, Helper: []string{helper, sandbox.HelperArg}}}
	p, err := protocol.Launch(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("starting %s serve-bot random (sandbox %s, helper %s): %v", bot, level, helper, err)
	}
	return &botLayer{proc: p}, nil
}

func (b *botLayer) stop() { b.proc.Kill(2 * time.Second) }

func (b *botLayer) newID() string {
	b.matches++
	return fmt.Sprintf("bench-%d", b.matches)
}

func startRequest(id string) *botpb.StartRequest {
	return &botpb.StartRequest{MatchId: id, Game: "ivanhoe", Seat: 0, Players: 2, Seed: 1}
}

// start opens a match of seat 0 and returns its id.
func (b *botLayer) start() (string, error) {
	id := b.newID()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := b.client().StartMatch(ctx, startRequest(id))
	return id, err
}

// asMatch copies the requests into one match of seat 0, numbered in order.
func asMatch(reqs []*botpb.DecideRequest, id string) []*botpb.DecideRequest {
	out := make([]*botpb.DecideRequest, len(reqs))
	for i, r := range reqs {
		c := proto.Clone(r).(*botpb.DecideRequest)
		c.MatchId, c.Seat, c.SeatDecision = id, 0, uint32(i+1)
		out[i] = c
	}
	return out
}

// rawRoundTrips runs the requests on a raw Match stream of the bot: no Seat.
func (b *botLayer) rawRoundTrips(reqs []*botpb.DecideRequest) (time.Duration, error) {
	id, err := b.start()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := b.client().Match(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = st.CloseSend() }()
	return timeEach(asMatch(reqs, id), func(r *botpb.DecideRequest) error {
		if err := st.Send(r); err != nil {
			return err
		}
		_, err := st.Recv()
		return err
	})
}

// seatRoundTrips runs the requests through protocol.Seat, as the runner does.
func (b *botLayer) seatRoundTrips(reqs []*botpb.DecideRequest) (time.Duration, error) {
	id := b.newID()
	seat, err := b.proc.OpenSeat(context.Background(), startRequest(id), 10*time.Second)
	if err != nil {
		return 0, err
	}
	defer func() { _ = seat.Close(nil, 0) }()
	return timeEach(asMatch(reqs, id), func(r *botpb.DecideRequest) error {
		_, _, err := seat.Decide(r, 5*time.Second)
		return err
	})
}

// twoSeatRoundTrips runs the requests through one protocol.Seat per seat, each on
// its own bot process, in the order of play: what a match's decisions cost without
// the runner.
func twoSeatRoundTrips(bots [2]*botLayer, reqs []*botpb.DecideRequest) (time.Duration, error) {
	var seats [2]*protocol.Seat
	var ids [2]string
	var asked [2]uint32
	for i, b := range bots {
		ids[i] = b.newID()
		start := startRequest(ids[i])
		start.Seat = int32(i)
		seat, err := b.proc.OpenSeat(context.Background(), start, 10*time.Second)
		if err != nil {
			return 0, err
		}
		defer func() { _ = seat.Close(nil, 0) }()
		seats[i] = seat
	}
	own := make([]*botpb.DecideRequest, len(reqs))
	for i, r := range reqs {
		s := r.Seat % 2
		c := proto.Clone(r).(*botpb.DecideRequest)
		asked[s]++
		c.MatchId, c.Seat, c.SeatDecision = ids[s], s, asked[s]
		own[i] = c
	}
	return timeEach(own, func(r *botpb.DecideRequest) error {
		_, _, err := seats[r.Seat].Decide(r, 5*time.Second)
		return err
	})
}

// beside is the program name in arenaBin's folder if there is one, else arenaBin.
func beside(arenaBin, name string) string {
	p := filepath.Join(filepath.Dir(arenaBin), name)
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return arenaBin
}

// client is the bot's raw Bot client.
func (b *botLayer) client() botpb.BotClient {
	c, _ := b.proc.Client()
	return c
}
