package arena

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
	_ "github.com/arena-games/arena/protocol/prototest" // testgame travels
	"github.com/arena-games/arena/protocol/sandbox"
)

// The test binary doubles as every test bot: started with ARENA_TEST_BOT=MODE it serves
// that bot instead of running tests. Modes:
//
//	first, last, random  well-behaved policies
//	sleep:K              sleeps 10 s at its K-th decision of every match (a timeout;
//	                     past every scaled clock: see testkit.ClockScaleEnv)
//	slow:MS              takes MS milliseconds over every decision
//	exit:K               exits at its K-th decision of the process (a crash)
//	exitonce:K           the same, but only the first process of the test does
//	illegal:K            answers option 99 at its K-th decision of every match
//	malformed:K          answers for another decision number at its K-th decision
//	error:K              fails its K-th decision of every match with an error status
//	panic:K              its policy panics at its K-th decision of every match
//	refuse               refuses every match at StartMatch
//	forker               starts a child that sleeps for a minute, then plays first
//	noisy                writes malformed log lines to stderr, then plays first
//	spin                 no bot: keeps one core busy until killed (see holdCoresBusy)
//	thief                tries to learn the deal from what the arena sends (secrets_test.go)
//	whoami               plays first and writes a line naming its process at every match
//	whoami-illegal       the same, answering option 99 (a forfeit)
const botModeEnv = "ARENA_TEST_BOT"

func TestMain(m *testing.M) {
	testkit.CoverChild(len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg)
	sandbox.RunHelper(os.Args) // the test binary is also the sandbox helper
	if mode := os.Getenv(botModeEnv); mode != "" {
		serveTestBot(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveTestBot(mode string) {
	// go-plugin sends what a Go bot writes to os.Stderr over gRPC, and loses it when the
	// bot dies at once; a dying test bot writes to the real stderr, as a bot in another
	// language would.
	realStderr := os.Stderr
	name, arg, _ := strings.Cut(mode, ":")
	k, _ := strconv.Atoi(arg)
	first := engine.PolicyFunc(func(_ engine.View, _ []engine.Event, _ []engine.Option) int { return 0 })
	switch name {
	case "first":
		protocol.Serve(first)
	case "last":
		protocol.Serve(engine.PolicyFunc(func(_ engine.View, _ []engine.Event, o []engine.Option) int { return len(o) - 1 }))
	case "random":
		protocol.ServeMatches(func(m protocol.Match) engine.Policy { return random.New(m.Seed) })
	case "slow":
		protocol.Serve(engine.PolicyFunc(func(_ engine.View, _ []engine.Event, _ []engine.Option) int {
			time.Sleep(time.Duration(k) * time.Millisecond)
			return 0
		}))
	case "sleep", "illegal", "panic":
		protocol.ServeMatches(func(protocol.Match) engine.Policy {
			n := 0
			return engine.PolicyFunc(func(_ engine.View, _ []engine.Event, _ []engine.Option) int {
				n++
				if n == k && name == "panic" {
					panic("test bot: a bug in the policy")
				}
				if n == k && name == "sleep" {
					time.Sleep(10 * time.Second)
				}
				if n == k && name == "illegal" {
					return 99
				}
				return 0
			})
		})
	case "exit", "exitonce":
		var n atomic.Int32
		flag := os.Getenv("ARENA_TEST_DIR") + "/crashed"
		protocol.Serve(engine.PolicyFunc(func(_ engine.View, _ []engine.Event, _ []engine.Option) int {
			if int(n.Add(1)) == k {
				if name == "exitonce" {
					if _, err := os.Stat(flag); err == nil {
						return 0
					}
					_ = os.WriteFile(flag, nil, 0o644)
				}
				fmt.Fprintln(realStderr, "test bot: exiting on purpose")
				os.Exit(3)
			}
			return 0
		}))
	case "malformed", "error", "refuse":
		protocol.ServeBot(&rawBot{inner: protocol.NewBotServer(func(protocol.Match) engine.Policy { return first }), k: k, mode: name})
	case "forker":
		child := exec.Command("sleep", "60")
		if err := child.Start(); err != nil {
			panic(err)
		}
		protocol.Serve(first)
	case "thief":
		serveThief(realStderr)
	case "v2":
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig: plugin.HandshakeConfig{ProtocolVersion: protocol.ProtocolVersion + 1,
				MagicCookieKey: protocol.Handshake.MagicCookieKey, MagicCookieValue: protocol.Handshake.MagicCookieValue},
			Plugins: plugin.PluginSet{protocol.PluginName: &futurePlugin{}},
		})
	case "spin":
		runtime.GOMAXPROCS(1)
		for x := uint64(1); ; x = x*6364136223846793005 + 1 {
			spun.Store(x)
		}
	case "seats":
		protocol.ServeMatches(func(m protocol.Match) engine.Policy {
			fmt.Fprintf(realStderr, "test bot: playing seat %d of %s\n", m.Seat, m.ID)
			return first
		})
	case "whoami", "whoami-illegal":
		// One line per match, naming this process (a random token: a pid namespace
		// gives every sandboxed process the same pid).
		token := strconv.FormatUint(rand.Uint64(), 36)
		protocol.ServeMatches(func(m protocol.Match) engine.Policy {
			fmt.Fprintf(realStderr, "whoami %s match %s seat %d\n", token, m.ID, m.Seat)
			if name == "whoami-illegal" {
				return engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int { return 99 })
			}
			return first
		})
	case "noisy":
		for i := 0; i < 50; i++ {
			fmt.Fprintln(os.Stderr, `{"@message": 1, "@level": 7}`)
		}
		fmt.Fprintln(os.Stderr, "not json at all")
		protocol.Serve(first)
	default:
		if serveHostileBot(name, k) {
			return
		}
		fmt.Fprintln(os.Stderr, "unknown test bot mode", mode)
		os.Exit(2)
	}
}

var spun atomic.Uint64 // keeps the spin loop from being optimised away

// holdCoresBusy starts n processes that each keep a core busy until the test ends, so
// that the arena, its bots and the spinners compete for the cores as on a loaded CI
// machine.
func holdCoresBusy(t *testing.T, n int) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		cmd := exec.Command(exe)
		cmd.Env = []string{botModeEnv + "=spin"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
}

// futurePlugin stands for a bot built for another protocol version.
type futurePlugin struct{ plugin.NetRPCUnsupportedPlugin }

func (futurePlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error { return nil }
func (futurePlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, nil
}

// rawBot speaks the messages itself so that it can break the protocol at decision k
// of every match.
type rawBot struct {
	botpb.UnimplementedBotServer
	inner botpb.BotServer
	k     int
	mode  string
}

func (b *rawBot) StartMatch(ctx context.Context, r *botpb.StartRequest) (*botpb.StartReply, error) {
	if b.mode == "refuse" {
		return nil, status.Error(codes.Unavailable, "test bot: not today")
	}
	return b.inner.StartMatch(ctx, r)
}

func (b *rawBot) EndMatch(ctx context.Context, r *botpb.EndRequest) (*botpb.EndReply, error) {
	return b.inner.EndMatch(ctx, r)
}

func (b *rawBot) Match(st botpb.Bot_MatchServer) error {
	for n := 1; ; n++ {
		req, err := st.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		rep := &botpb.DecideReply{MatchId: req.MatchId, SeatDecision: req.SeatDecision}
		if n == b.k {
			if b.mode == "error" {
				return status.Error(codes.Internal, "test bot: failing on purpose")
			}
			rep.SeatDecision += 1000
		}
		if err := st.Send(rep); err != nil {
			return err
		}
	}
}

// marker tags every process a test starts (children inherit it), so that leftovers can
// be found in /proc.
func testEntrant(t testing.TB, name, mode string) Entrant {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append([]string{botModeEnv + "=" + mode, markerEnv(t), "ARENA_TEST_DIR=" + testDir(t)}, testkit.ChildEnv()...)
	return Entrant{Name: name, Launch: protocol.LaunchConfig{Path: exe, Env: env}}
}

// markerEnv names the test and this test process: other test processes on the
// machine (other checkouts) run tests of the same names at the same time.
func markerEnv(t testing.TB) string {
	return fmt.Sprintf("ARENA_TEST_MARKER=%s-%d", strings.ReplaceAll(t.Name(), "/", "_"), os.Getpid())
}

// leftovers lists the live processes carrying this test's marker.
func leftovers(t *testing.T) []string {
	want := []byte(markerEnv(t) + "\x00")
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !strings.Contains(string(env), string(want)) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue // a zombie has ended; only its parent's wait is missing
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
	}
	return out
}

// requireNoLeftovers waits (poll.Limit at most) for killed processes to vanish, then
// fails on any.
func requireNoLeftovers(t *testing.T) {
	t.Helper()
	var left []string
	if !poll.Eventually(func() bool { left = leftovers(t); return len(left) == 0 }) {
		t.Fatalf("processes left running: %v", left)
	}
}

var (
	testDirsMu sync.Mutex
	testDirs   = map[testing.TB]string{}
)

// testDir is one temporary directory per test, shared by its bots. (Keyed by the test
// itself, under a lock: tests run in parallel, and -count reruns a name.)
func testDir(t testing.TB) string {
	testDirsMu.Lock()
	defer testDirsMu.Unlock()
	if d, ok := testDirs[t]; ok {
		return d
	}
	d := t.TempDir()
	testDirs[t] = d
	return d
}

// testSandbox is the sandbox of the tests' runs: the test binary is its own helper,
// or the helper program named in ARENA_SANDBOX_TEST_HELPER (an arena-sandbox build, as
// the arena uses beside it: `go build -o /tmp/h ./cmd/arena-sandbox &&
// ARENA_SANDBOX_TEST_HELPER=/tmp/h go test ./arena/`).
func testSandbox(t testing.TB, level sandbox.Level) sandbox.Config {
	helper := os.Getenv("ARENA_SANDBOX_TEST_HELPER")
	if helper == "" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		helper = exe
	}
	return sandbox.Config{Level: level, Helper: []string{helper, sandbox.HelperArg}, Limits: sandbox.Limits{Memory: 256 << 20, Processes: 64}}
}
