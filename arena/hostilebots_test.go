package arena

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
	"github.com/arena-games/arena/protocol/sandbox"
)

// hogged keeps what the memory hog allocates reachable, so none of it is freed.
var hogged [][]byte

// The hostile bots: more modes of the test binary (see testbots_test.go). Each plays
// the first legal option until it misbehaves at its K-th decision of a match (or of the
// process, for crashes):
//
//	nohandshake       exits before the handshake
//	junk              prints a line that is not a handshake, then serves
//	startcrash        handshakes, then panics in StartMatch (a Go crash)
//	hang:K            never answers decision K
//	compute:K         computes for 3 s (scaled with the clocks) at decision K, ignoring
//	                  the deadline, then answers (not "spin", the core-spinner of
//	                  holdCoresBusy, which never starts as a bot)
//	negative:K        answers option -1 at decision K
//	garbage           answers every decision with bytes that are no protobuf message
//	huge:K            answers decision K with a 5 MiB message
//	flood             writes 12 MiB to its real stdout and stderr from its first
//	                  decision of a match on, and plays on
//	crashmid:K        exits at decision K
//	forkcrash:K       starts a child that holds its pipes open, exits at decision K
//	escape:K          the same with a child that leaves the process group (setsid)
//	bomb:K            starts processes without end at decision K, plays on
//	hog:K             allocates memory without bound at decision K
//	net:K             opens a TCP connection to ARENA_TEST_ADDR at decision K, plays on
//	write:K           writes outside its directory (ARENA_TEST_OUTSIDE) and inside it at
//	                  decision K, plays on
//	chmod:K           at decision K, chmods and chowns every file of ARENA_TEST_VICTIMS
//	                  (another bot's program, the arena binary, the database), plays on
//	read:K            at decision K, reads every file of ARENA_TEST_SECRETS (another
//	                  bot's program, the database, a replay), plays on
//	proc:K            at decision K, reads /proc/1/cmdline, plays on
//	udp:K             at decision K, sends a datagram to ARENA_TEST_UDP, plays on
//	sockets:K         at decision K, asks for AF_INET, AF_INET6, AF_NETLINK and AF_VSOCK
//	                  sockets and an io_uring natively, with the x32 numbers and through
//	                  the i386 gate (int $0x80), and sends a datagram to ARENA_TEST_UDP
//	                  from any AF_INET socket it gets, plays on
//	fill:K            at decision K of each match, writes four disk quotas (the
//	                  default's) in files of 1 MiB into its scratch directory, plays on
//	unix:K            at decision K, connects to the unix socket ARENA_TEST_UNIX, plays on
//	daemon:K          at decision K, starts a setsid daemon that keeps its stderr, plays on
//	headers           sends 15 MiB of header metadata with its first answer
//	endhang           never returns from EndMatch (until its next match starts), and says
//	                  when a match starts while an EndMatch is still pending
//
// What a bot tried and what happened goes to its real stderr as "probe: ..." lines,
// which the arena keeps beside the replays.
func serveHostileBot(name string, k int) bool {
	stderr := os.Stderr // go-plugin redirects os.Stderr once serving
	stdout := os.Stdout
	first := engine.PolicyFunc(func(_ engine.View, _ []engine.Event, _ []engine.Option) int { return 0 })
	perMatch := func(act func(n int, opts []engine.Option) int) {
		protocol.ServeMatches(func(protocol.Match) engine.Policy {
			n := 0
			return engine.PolicyFunc(func(_ engine.View, _ []engine.Event, o []engine.Option) int {
				n++
				return act(n, o)
			})
		})
	}
	switch name {
	case "nohandshake":
		fmt.Fprintln(stderr, "test bot: leaving before the handshake")
		os.Exit(1)
	case "junk":
		fmt.Fprintln(stdout, "hello arena, I am a bot")
		protocol.Serve(first)
	case "startcrash":
		protocol.ServeBot(&hostileServer{inner: protocol.NewBotServer(func(protocol.Match) engine.Policy { return first }), mode: name, k: k})
	case "chmod", "read", "proc", "udp", "unix", "daemon", "sockets", "fill":
		perMatch(func(n int, _ []engine.Option) int {
			if n == k {
				trespass(name, stderr)
			}
			return 0
		})
	case "hang", "compute", "negative", "flood", "bomb", "hog", "net", "write":
		perMatch(func(n int, _ []engine.Option) int {
			if name == "flood" && n == 1 {
				// Beside its answers, not in their time: the flood must not make it late.
				go func() {
					chunk := strings.Repeat("flood flood flood flood\n", 1<<10)
					for i := 0; i < (12<<20)/len(chunk); i++ {
						_, _ = io.WriteString(stdout, chunk)
						_, _ = io.WriteString(stderr, chunk)
					}
				}()
			}
			if n != k {
				return 0
			}
			switch name {
			case "hang":
				select {}
			case "compute":
				for end := time.Now().Add(testkit.Scaled(3 * time.Second)); time.Now().Before(end); {
				}
			case "negative":
				return -1
			case "bomb":
				cmd := exec.Command("/bin/sh", "-c", "while :; do sleep 60 & done")
				cmd.Stderr = stderr
				if err := cmd.Start(); err != nil {
					fmt.Fprintln(stderr, "probe: bomb did not start:", err)
				}
				time.Sleep(300 * time.Millisecond) // within the deadline: let it reach the limit

			case "hog":
				for {
					b := make([]byte, 16<<20)
					for i := 0; i < len(b); i += 4096 {
						b[i] = 1
					}
					hogged = append(hogged, b)
				}
			case "net":
				c, err := net.DialTimeout("tcp", os.Getenv("ARENA_TEST_ADDR"), time.Second)
				if err != nil {
					fmt.Fprintln(stderr, "probe: connect refused:", err)
				} else {
					fmt.Fprintln(stderr, "probe: connected")
					c.Close()
				}
			case "write":
				outside := filepath.Join(os.Getenv("ARENA_TEST_OUTSIDE"), fmt.Sprintf("escaped-%d", os.Getpid()))
				if err := os.WriteFile(outside, []byte("out"), 0o644); err != nil {
					fmt.Fprintln(stderr, "probe: write outside refused:", err)
				} else {
					fmt.Fprintln(stderr, "probe: wrote outside")
				}
				if err := os.WriteFile("inside", []byte("in"), 0o644); err != nil {
					fmt.Fprintln(stderr, "probe: write inside failed:", err)
				} else {
					fmt.Fprintln(stderr, "probe: wrote inside")
				}
			}
			return 0
		})
	case "forkcrash", "escape", "crashmid":
		perMatch(func(n int, _ []engine.Option) int {
			if n != k {
				return 0
			}
			if name != "crashmid" {
				child := exec.Command("sleep", "60")
				child.Stdout, child.Stderr = stdout, stderr
				if name == "escape" {
					child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
				}
				if err := child.Start(); err != nil {
					fmt.Fprintln(stderr, "probe: child did not start:", err)
				}
			}
			fmt.Fprintln(stderr, "test bot: crashing on purpose")
			os.Exit(3)
			return 0
		})
	case "garbage", "huge", "headers", "endhang":
		srv := &hostileServer{inner: protocol.NewBotServer(func(protocol.Match) engine.Policy { return first }), mode: name, k: k,
			stderr: stderr}
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig: protocol.Handshake(),
			Plugins:         plugin.PluginSet{protocol.PluginName: &rawPlugin{srv: srv}},
			GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
				if name == "garbage" {
					opts = append(opts, grpc.ForceServerCodec(garbageCodec{}))
				}
				return plugin.DefaultGRPCServer(opts)
			},
		})
	default:
		return false
	}
	return true
}

// hostileServer breaks the protocol on the wire.
type hostileServer struct {
	botpb.UnimplementedBotServer
	inner botpb.BotServer
	mode  string
	k     int
	// stderr is the real one; pending counts EndMatch calls not yet returned, starts
	// the matches started.
	stderr  io.Writer
	pending atomic.Int32
	starts  atomic.Int32
}

func (b *hostileServer) StartMatch(ctx context.Context, r *botpb.StartRequest) (*botpb.StartReply, error) {
	if b.mode == "startcrash" {
		panic("test bot: crashing as the match starts")
	}
	if b.mode == "endhang" && b.pending.Load() > 0 {
		fmt.Fprintln(b.stderr, "probe: a match started while an EndMatch was pending")
	}
	b.starts.Add(1)
	return b.inner.StartMatch(ctx, r)
}

func (b *hostileServer) EndMatch(ctx context.Context, r *botpb.EndRequest) (*botpb.EndReply, error) {
	if b.mode == "endhang" {
		b.pending.Add(1)
		defer b.pending.Add(-1)
		if dl, ok := ctx.Deadline(); ok {
			fmt.Fprintf(b.stderr, "probe: EndMatch deadline in %d ms\n", time.Until(dl).Milliseconds())
		}
		// Past the arena's deadline too: until this process's next match starts (a
		// process keeps its seat, so that is a few matches later), or a while.
		started, limit := b.starts.Load(), time.Now().Add(20*time.Second)
		for b.starts.Load() == started && time.Now().Before(limit) {
			time.Sleep(10 * time.Millisecond)
		}
		return nil, ctx.Err()
	}
	return b.inner.EndMatch(ctx, r)
}

func (b *hostileServer) Match(st botpb.Bot_MatchServer) error {
	for n := 1; ; n++ {
		req, err := st.Recv()
		if err != nil {
			return nil
		}
		rep := &botpb.DecideReply{MatchId: req.MatchId, SeatDecision: req.SeatDecision}
		if b.mode == "huge" && n == b.k {
			rep.MatchId = strings.Repeat("x", 5<<20)
		}
		if b.mode == "headers" && n == 1 {
			if err := st.SendHeader(metadata.Pairs("x-flood", strings.Repeat("h", 15<<20))); err != nil {
				fmt.Fprintln(b.stderr, "probe: header flood refused:", err)
			}
		}
		if err := st.Send(rep); err != nil {
			return err
		}
	}
}

type rawPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	srv botpb.BotServer
}

func (p *rawPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, p.srv)
	return nil
}

func (p *rawPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, nil
}

// garbageCodec is protobuf for everything but a decision's answer, which it replaces
// by bytes that no protobuf decoder accepts (a field with wire type 7).
type garbageCodec struct{}

func (garbageCodec) Marshal(v any) ([]byte, error) {
	if _, ok := v.(*botpb.DecideReply); ok {
		return []byte{0x0f, 0xff, 0xff, 0xff, 'g', 'a', 'r', 'b', 'a', 'g', 'e'}, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (garbageCodec) Unmarshal(data []byte, v any) error {
	return proto.Unmarshal(data, v.(proto.Message))
}
func (garbageCodec) Name() string { return "proto" }

// trespass tries what a bot must never do, and says on stderr how each try went.
func trespass(name string, stderr io.Writer) {
	list := func(env string) []string { return strings.Split(os.Getenv(env), string(os.PathListSeparator)) }
	switch name {
	case "chmod":
		for _, v := range list("ARENA_TEST_VICTIMS") {
			report(stderr, "chmod "+v, os.Chmod(v, 0))
			report(stderr, "chown "+v, os.Chown(v, os.Getuid(), os.Getgid()))
		}
	case "read":
		for _, v := range list("ARENA_TEST_SECRETS") {
			b, err := os.ReadFile(v)
			if err == nil {
				fmt.Fprintf(stderr, "probe: read %s: %d bytes\n", v, len(b))
				continue
			}
			report(stderr, "read "+v, err)
		}
	case "proc":
		b, err := os.ReadFile("/proc/1/cmdline")
		if err != nil {
			report(stderr, "read /proc/1/cmdline", err)
			return
		}
		fmt.Fprintf(stderr, "probe: /proc/1/cmdline is %q\n", b)
	case "udp":
		c, err := net.Dial("udp", os.Getenv("ARENA_TEST_UDP"))
		if err == nil {
			_, err = c.Write([]byte("hello from a bot"))
			c.Close()
		}
		report(stderr, "udp", err)
	case "sockets":
		for _, a := range attack.Sockets(os.Getenv("ARENA_TEST_UDP")) {
			fmt.Fprintf(stderr, "probe: %s: %s\n", a.Call, a.Outcome)
		}
	case "fill":
		fmt.Fprintln(stderr, "probe: fill", attack.FillDisk(".", 4*sandbox.DefaultLimits().Disk))
	case "unix":
		c, err := net.Dial("unix", os.Getenv("ARENA_TEST_UNIX"))
		if err == nil {
			c.Close()
		}
		report(stderr, "unix", err)
	case "daemon":
		// sh exits at once: the daemon is re-parented, out of the bot's process group,
		// and holds the bot's stderr.
		sh := exec.Command("/bin/sh", "-c", "setsid sleep 61 >/dev/null &")
		sh.Stderr = stderr
		report(stderr, "daemon", sh.Run())
	}
}

func report(stderr io.Writer, what string, err error) {
	if err != nil {
		fmt.Fprintf(stderr, "probe: %s refused: %v\n", what, err)
		return
	}
	fmt.Fprintf(stderr, "probe: %s done\n", what)
}
