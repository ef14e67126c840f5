package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// The bare side: a gRPC service of one bidirectional stream that answers every message
// with a reply of a fixed size, served by this very program in a process of its own
// through go-plugin's handshake and unix socket, with no sandbox, no SDK and no seat
// reader. Its messages are bytes fields of the sizes of the arena's own messages, so
// that the two sides carry the same bytes; it needs no generated code.

const (
	bareServeArg = "serve-bare"
	bareReplyEnv = "ARENABENCH_REPLY_BYTES"
	barePlugin   = "bare"
)

var bareHandshake = plugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "ARENABENCH_BARE", MagicCookieValue: "bare-stream"}

var bareService = grpc.ServiceDesc{
	ServiceName: "arena.bench.bare.Echo",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{StreamName: "Stream", Handler: serveBareStream,
		ServerStreams: true, ClientStreams: true}},
}

const bareMethod = "/arena.bench.bare.Echo/Stream"

// serveBareStream answers each message with one reply of the size the host asked for.
func serveBareStream(_ any, st grpc.ServerStream) error {
	n, _ := strconv.Atoi(os.Getenv(bareReplyEnv))
	in, out := new(wrapperspb.BytesValue), &wrapperspb.BytesValue{Value: make([]byte, n)}
	for {
		if err := st.RecvMsg(in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := st.SendMsg(out); err != nil {
			return err
		}
	}
}

type bareGRPC struct{ plugin.NetRPCUnsupportedPlugin }

func (bareGRPC) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&bareService, struct{}{})
	registerSDK(s)
	return nil
}

func (bareGRPC) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return c, nil
}

// serveBare is the bare process's main.
func serveBare() {
	plugin.Serve(&plugin.ServeConfig{HandshakeConfig: bareHandshake,
		Plugins:    plugin.PluginSet{barePlugin: bareGRPC{}},
		Logger:     hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: os.Stderr}),
		GRPCServer: plugin.DefaultGRPCServer})
}

// bareProc is a started bare process.
type bareProc struct {
	client *plugin.Client
	conn   *grpc.ClientConn
}

// startBare starts the bare process the way go-plugin starts any plugin.
func startBare(replyBytes int, env ...string) (*bareProc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, bareServeArg)
	cmd.Env = append([]string{bareReplyEnv + "=" + strconv.Itoa(replyBytes)}, env...)
	c := plugin.NewClient(&plugin.ClientConfig{HandshakeConfig: bareHandshake,
		Plugins: plugin.PluginSet{barePlugin: bareGRPC{}}, Cmd: cmd, SkipHostEnv: true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC}, Logger: hclog.NewNullLogger(),
		SyncStdout: io.Discard, SyncStderr: os.Stderr})
	rpc, err := c.Client()
	if err == nil {
		var raw any
		if raw, err = rpc.Dispense(barePlugin); err == nil {
			return &bareProc{client: c, conn: raw.(*grpc.ClientConn)}, nil
		}
	}
	c.Kill()
	return nil, err
}

func (b *bareProc) stop() { b.client.Kill() }

// bareStream is one open stream of the bare service.
type bareStream struct {
	cs     grpc.ClientStream
	in     *wrapperspb.BytesValue
	cancel context.CancelFunc
}

func (b *bareProc) open() (*bareStream, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cs, err := b.conn.NewStream(ctx, &bareService.Streams[0], bareMethod)
	if err != nil {
		cancel()
		return nil, err
	}
	return &bareStream{cs: cs, in: new(wrapperspb.BytesValue), cancel: cancel}, nil
}

// roundTrip is one Send and one Recv.
func (s *bareStream) roundTrip(m *wrapperspb.BytesValue) error {
	if err := s.cs.SendMsg(m); err != nil {
		return err
	}
	return s.cs.RecvMsg(s.in)
}

func (s *bareStream) close() {
	_ = s.cs.CloseSend()
	s.cancel()
}

// bareRoundTrips runs the messages through streams at once (each stream the whole
// list) and returns the wall time per round trip over all of them.
func bareRoundTrips(b *bareProc, msgs []*wrapperspb.BytesValue, streams int) (time.Duration, error) {
	ss := make([]*bareStream, streams)
	for i := range ss {
		s, err := b.open()
		if err != nil {
			return 0, err
		}
		defer s.close()
		ss[i] = s
		if err := s.roundTrip(msgs[0]); err != nil { // the stream is set up outside the timing
			return 0, err
		}
	}
	wall, err := inFlight(streams, func(i int) error {
		for _, m := range msgs {
			if err := ss[i].roundTrip(m); err != nil {
				return err
			}
		}
		return nil
	})
	return wall / time.Duration(streams*len(msgs)), err
}

// bareInTurn sends each message to the process of its seat (seats[i] is 0 or 1), one
// stream each, in order: the bare analogue of a match, which asks two bots in turn, each
// idle while the other answers.
func bareInTurn(procs [2]*bareProc, msgs []*wrapperspb.BytesValue, seats []int) (time.Duration, error) {
	var ss [2]*bareStream
	for i, b := range procs {
		s, err := b.open()
		if err != nil {
			return 0, err
		}
		defer s.close()
		ss[i] = s
		if err := s.roundTrip(msgs[0]); err != nil { // set up outside the timing
			return 0, err
		}
	}
	start := time.Now()
	for i, m := range msgs {
		if err := ss[seats[i]].roundTrip(m); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(len(msgs)), nil
}

// inFlight runs work(0..n-1) at once and returns the wall time until all are done.
func inFlight(n int, work func(int) error) (time.Duration, error) {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = work(i)
		}()
	}
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// barePluginStarts is n bare go-plugin starts at once, as a match of n seats starts its
// bots: the wall time until each has been exec'd, handshaken, connected and has
// answered its first round trip on a stream.
func barePluginStarts(n int, first *wrapperspb.BytesValue, replyBytes int) (time.Duration, error) {
	return inFlight(n, func(int) error { return barePluginStart(first, replyBytes) })
}

// barePluginStart is one bare go-plugin start: exec, handshake, connection, and the
// first round trip on a stream.
func barePluginStart(first *wrapperspb.BytesValue, replyBytes int) error {
	b, err := startBare(replyBytes)
	if err != nil {
		return err
	}
	defer b.stop()
	s, err := b.open()
	if err != nil {
		return err
	}
	defer s.close()
	return s.roundTrip(first)
}
