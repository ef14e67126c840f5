package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/botpb"
)

// Match is what a bot learns when a match starts.
type Match struct {
	ID      string
	Game    string
	Seat    int
	Players int
	// Seed is for the bot's own randomness in this match; the arena derives it from the
	// run's seed, one way, so that runs repeat and the seed tells nothing of the deal.
	Seed uint64
	// Options are the game's options (engine.Options: a board, a deck, in full); nil is
	// the defaults. The views a policy gets are already decoded with them.
	Options engine.Options
}

// Outcome is how a match ended, for bots that implement Ender.
type Outcome struct {
	Place, Score []int
	Adjudicated  bool
	Endings      []botpb.Ending
}

// Ender is implemented by policies that want to hear how their match ended.
type Ender interface {
	EndMatch(Outcome)
}

// Serve runs policy as a bot process, for every match it is asked to play, until the
// arena stops it. policy must be safe for concurrent use: one process plays many
// matches at once. Serve is the whole main of a bot.
func Serve(policy engine.Policy) {
	ServeMatches(func(Match) engine.Policy { return policy })
}

// ServeMatches runs a bot process that makes a fresh policy for every match (and
// seat), for bots that keep state within a match. Calls for one match come one at a
// time; calls for different matches run concurrently.
func ServeMatches(newPolicy func(Match) engine.Policy) {
	ServeBot(NewBotServer(newPolicy))
}

// oneCoreServer is a bot's service that goes to one core (oneCore) as its first match
// starts, before the bot's policy for the match is made, which may choose otherwise.
// (Its start is the same either way: 0.996x and 0.972x of before, going to one core
// as the first match starts or just after, paired medians of 25.)
type oneCoreServer struct {
	botpb.BotServer
	once sync.Once
}

func (s *oneCoreServer) StartMatch(ctx context.Context, req *botpb.StartRequest) (*botpb.StartReply, error) {
	s.once.Do(oneCore)
	return s.BotServer.StartMatch(ctx, req)
}

// startProcs is GOMAXPROCS as the bot's program started, before its main ran.
var startProcs = runtime.GOMAXPROCS(0)

// oneCore runs the bot's Go code on one core at a time (GOMAXPROCS 1), unless the bot
// chose otherwise: the GOMAXPROCS environment variable, or runtime.GOMAXPROCS called
// before its first match with another number than the machine's default. A bot spends
// most of its life waiting for the arena's next question, and with idle Ps to spare
// each answer's wake-up also wakes threads that look for work and find none: with one
// P the machine makes 11.3 context switches a decision instead of 14.3, and a
// decision's round trip takes 0.84 of the time (docs/performance.md, "The bot
// on one core"). A bot that searches on several goroutines at once sets GOMAXPROCS
// itself.
func oneCore() {
	if _, set := os.LookupEnv("GOMAXPROCS"); set || runtime.GOMAXPROCS(0) != startProcs {
		return
	}
	runtime.GOMAXPROCS(1)
}

// exitWithParent ends a bot whose arena died without stopping it (killed with
// SIGKILL, which nothing can catch): the bot is re-parented, which a poll notices.
func exitWithParent() {
	ppid := os.Getppid()
	for range time.Tick(500 * time.Millisecond) {
		if os.Getppid() != ppid {
			os.Exit(0)
		}
	}
}

func serveConfig(s botpb.BotServer, register func(*grpc.Server)) *plugin.ServeConfig {
	return &plugin.ServeConfig{
		HandshakeConfig: Handshake(),
		Plugins:         plugin.PluginSet{PluginName: &botPlugin{server: s, register: register}},
		// go-plugin's own chatter (trace-level JSON by default) would bury the bot's
		// last words in the stderr tail the arena keeps.
		Logger: hclog.New(&hclog.LoggerOptions{Name: "bot", Level: hclog.Warn, Output: os.Stderr}),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(MaxMessageBytes), grpc.MaxSendMsgSize(MaxMessageBytes),
				grpc.StaticStreamWindowSize(WindowBytes), grpc.StaticConnWindowSize(WindowBytes))
			return plugin.DefaultGRPCServer(opts)
		},
	}
}

// NewBotServer is the Bot service of the Go SDK, for serving it some other way than
// Serve (tests, in-process runs).
func NewBotServer(newPolicy func(Match) engine.Policy) botpb.BotServer {
	return &botServer{newPolicy: newPolicy}
}

type matchKey struct {
	id   string
	seat int32
}

type botServer struct {
	botpb.UnimplementedBotServer
	newPolicy func(Match) engine.Policy
	matches   sync.Map // matchKey -> *seatState
}

// seatState is one seat of one match: its policy and the buffers its decisions reuse.
type seatState struct {
	mu     sync.Mutex
	policy engine.Policy
	decode func(*botpb.View) (engine.View, error)
	seat   int
	opts   []engine.Option
	events []engine.Event
}

func (s *botServer) StartMatch(_ context.Context, req *botpb.StartRequest) (*botpb.StartReply, error) {
	codec, err := CodecFor(req.Game)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	decode, err := codec.Decoder(req.Options)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	m := Match{ID: req.MatchId, Game: req.Game, Seat: int(req.Seat), Players: int(req.Players), Seed: req.Seed, Options: req.Options}
	p, err := s.callNew(m)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	s.matches.Store(matchKey{req.MatchId, req.Seat}, &seatState{policy: p, decode: decode, seat: int(req.Seat)})
	return &botpb.StartReply{}, nil
}

func (s *botServer) callNew(m Match) (p engine.Policy, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked("starting the policy", r)
		}
	}()
	p = s.newPolicy(m)
	if p == nil {
		return nil, errors.New("no policy for this match")
	}
	return p, nil
}

func (s *botServer) Match(st botpb.Bot_MatchServer) error {
	var seat *seatState
	for {
		req, err := st.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if seat == nil {
			v, ok := s.matches.Load(matchKey{req.MatchId, req.Seat})
			if !ok {
				return status.Errorf(codes.FailedPrecondition, "match %q seat %d was not started", req.MatchId, req.Seat)
			}
			seat = v.(*seatState)
		}
		choice, err := seat.decide(req)
		if err != nil {
			return status.Error(codes.Internal, err.Error())
		}
		if err := st.Send(&botpb.DecideReply{MatchId: req.MatchId, SeatDecision: req.SeatDecision, Choice: int32(choice)}); err != nil {
			return err
		}
	}
}

func (st *seatState) decide(req *botpb.DecideRequest) (choice int, err error) {
	received := time.Now()
	st.mu.Lock()
	defer st.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = panicked("the policy", r)
		}
	}()
	view, err := st.decode(req.View)
	if err != nil {
		return 0, err
	}
	if st.opts, err = DecodeOptions(st.opts[:0], req.Options); err != nil {
		return 0, err
	}
	if st.events, err = DecodeEvents(st.events[:0], req.Events, st.seat); err != nil {
		return 0, err
	}
	if t, ok := st.policy.(Timed); ok && req.DeadlineUs > 0 {
		c := Clock{Deadline: received.Add(time.Duration(req.DeadlineUs) * time.Microsecond), Bank: time.Duration(req.BankUs) * time.Microsecond}
		return t.ChooseWithin(c, view, st.events, st.opts), nil
	}
	return st.policy.Choose(view, st.events, st.opts), nil
}

func (s *botServer) EndMatch(_ context.Context, req *botpb.EndRequest) (*botpb.EndReply, error) {
	v, ok := s.matches.LoadAndDelete(matchKey{req.MatchId, req.Seat})
	if !ok {
		return &botpb.EndReply{}, nil
	}
	if e, ok := v.(*seatState).policy.(Ender); ok {
		out := Outcome{Adjudicated: req.Adjudicated, Endings: req.Endings}
		for i := range req.Place {
			out.Place = append(out.Place, int(req.Place[i]))
		}
		for i := range req.Score {
			out.Score = append(out.Score, int(req.Score[i]))
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					_ = panicked("EndMatch", r)
				}
			}()
			e.EndMatch(out)
		}()
	}
	return &botpb.EndReply{}, nil
}

// servePlugin is plugin.Serve, kept apart so tests can serve extra services.
func servePlugin(c *plugin.ServeConfig) { plugin.Serve(c) }

// ServeBot serves any implementation of the Bot service through go-plugin, for bots
// that want the raw messages rather than an engine.Policy.
func ServeBot(srv botpb.BotServer) {
	go exitWithParent()
	plugin.Serve(serveConfig(&oneCoreServer{BotServer: srv}, nil))
}

// panicked writes a recovered panic's message and stack to stderr, where the arena keeps
// them (beside the replays, and shown by `arena bot check`), and makes the error that
// fails the seat: the process plays on for its other matches.
func panicked(what string, r any) error {
	fmt.Fprintf(os.Stderr, "panic in %s: %v\n\n%s\n", what, r, debug.Stack())
	return fmt.Errorf("%s panicked: %v (stack on the bot's stderr)", what, r)
}
