//go:build linux

package protocol

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"golang.org/x/sys/unix"
	"google.golang.org/grpc"

	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/botpb"
	"github.com/arena-games/arena/protocol/sandbox"
)

// EndMatchTimeout is how long the arena waits for a bot to take a match's result
// (package bot's).
const EndMatchTimeout = bot.EndMatchTimeout

// LaunchConfig says how to start one bot process (package bot's).
type LaunchConfig = bot.LaunchConfig

// Process is a running bot process: the go-plugin client, the runner of its process
// group and its sandbox. It implements bot.Process.
type Process struct {
	bot    botpb.BotClient
	conn   *grpc.ClientConn
	client *plugin.Client
	run    *groupRunner
	box    *sandbox.Box
}

var _ bot.Process = (*Process)(nil)

// Launcher starts go-plugin bot processes (Launch) for the match runner.
type Launcher struct{}

var _ bot.Launcher = Launcher{}

// Launch is Launch, as a bot.Process.
func (Launcher) Launch(ctx context.Context, cfg LaunchConfig) (bot.Process, error) {
	p, err := Launch(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// CheckGame says whether the wire has view messages for game.
func (Launcher) CheckGame(game string) error {
	_, err := CodecFor(game)
	return err
}

// Launch starts a bot process and completes go-plugin's handshake. The bot runs in a
// process group of its own, with stdin from /dev/null and a minimal environment; its
// stderr is kept raw (Stderr), never parsed. When ctx ends first, the start is
// abandoned at once (the process is killed) and ctx's error returned. On error nothing
// is left running.
func Launch(ctx context.Context, cfg LaunchConfig) (*Process, error) {
	cfg = withDefaults(cfg)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path, box, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	l := &launch{ctx: ctx, cfg: cfg, box: box, tail: &tailBuffer{max: cfg.StderrBytes}}
	l.client = plugin.NewClient(l.clientConfig(path))
	// A cancellation kills the process, so that go-plugin's Start returns at once.
	stop := context.AfterFunc(ctx, func() {
		if run := l.runner(); run != nil {
			run.killGroup()
		}
	})
	defer stop()
	rpc, err := l.client.Client()
	if err != nil {
		return l.fail(stop, err)
	}
	raw, err := rpc.Dispense(PluginName)
	if err != nil {
		return l.fail(stop, err)
	}
	if ctx.Err() != nil {
		return l.fail(stop, ctx.Err())
	}
	c := raw.(*botClient)
	box.Started()
	return &Process{bot: c.bot, conn: c.conn, client: l.client, run: l.runner(), box: box}, nil
}

// withDefaults fills in the zero fields of cfg.
func withDefaults(cfg LaunchConfig) LaunchConfig {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.StderrBytes <= 0 {
		cfg.StderrBytes = 64 << 10
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	return cfg
}

// prepare checks the bot's executable and prepares its sandbox.
func prepare(cfg LaunchConfig) (string, *sandbox.Box, error) {
	if err := checkExecutable(cfg.Path); err != nil {
		return "", nil, err
	}
	path, err := filepath.Abs(cfg.Path)
	if err != nil {
		return "", nil, err
	}
	box, err := cfg.Sandbox.Prepare()
	return path, box, err
}

// launch is one start of a bot process in progress.
type launch struct {
	ctx    context.Context
	cfg    LaunchConfig
	box    *sandbox.Box
	tail   *tailBuffer
	client *plugin.Client
	// mu hands the runner from go-plugin's Start to a cancellation.
	mu  sync.Mutex
	run *groupRunner
}

func (l *launch) runner() *groupRunner {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.run
}

// clientConfig is go-plugin's client for the bot at path: gRPC only, the arena's
// message and window sizes, the bot's stdout to the handshake and its stderr to the
// tail, started by newRunner.
func (l *launch) clientConfig(path string) *plugin.ClientConfig {
	return &plugin.ClientConfig{
		HandshakeConfig:  Handshake(),
		Plugins:          plugin.PluginSet{PluginName: &botPlugin{}},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		SkipHostEnv:      true,
		StartTimeout:     l.cfg.StartTimeout,
		Logger:           l.cfg.Logger,
		SyncStdout:       io.Discard,
		SyncStderr:       l.tail,
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(MaxReplyBytes), grpc.MaxCallSendMsgSize(MaxMessageBytes)),
			grpc.WithMaxHeaderListSize(MaxHeaderBytes),
			grpc.WithStaticStreamWindowSize(WindowBytes), grpc.WithStaticConnWindowSize(WindowBytes)},
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, _ string) (runner.Runner, error) {
			return l.newRunner(path, spec)
		},
	}
}

// newRunner makes the command go-plugin starts: the bot in its sandbox, with the
// minimal environment and go-plugin's variables.
func (l *launch) newRunner(path string, spec *exec.Cmd) (runner.Runner, error) {
	env := append(append([]string{"PATH=/usr/local/bin:/usr/bin:/bin"}, l.cfg.Env...), spec.Env...)
	name, args, env, err := l.box.Command(path, l.cfg.Args, env)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = env, l.box.Dir
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	l.run = &groupRunner{cmd: cmd, tail: l.tail, box: l.box, ctx: l.ctx}
	return l.run, nil
}

// fail ends a start that failed: nothing is left running, and the error says why, as
// a *StartError when the bot is to blame.
func (l *launch) fail(stop func() bool, err error) (*Process, error) {
	stop()
	run := l.runner()
	l.client.Kill()
	if run != nil {
		run.killGroup()
	}
	if run == nil || run.exited == nil {
		l.box.Cleanup() // never started; otherwise the runner cleans up once it ends
	}
	if l.ctx.Err() != nil {
		return nil, l.ctx.Err()
	}
	kind := startKind(err)
	if why := run.stopReason(); why != nil {
		// The host stopped it (its disk quota): that is why it did not start.
		kind, err = StartExited, why
	}
	msg := strings.TrimSpace(l.tail.String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	return nil, &StartError{Kind: kind, Bot: l.cfg.Path, Err: err, Stderr: msg}
}

// Sandbox lists the sandbox layers of the process: active, or missing and why.
func (p *Process) Sandbox() []sandbox.Status { return p.box.Layers() }

// Box is the process's sandbox.
func (p *Process) Box() *sandbox.Box { return p.box }

func chanClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func checkExecutable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("bot %s: %w", path, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return fmt.Errorf("bot %s is not an executable file", path)
	}
	return nil
}

// Pid is the bot's process id, which is also its process group id.
func (p *Process) Pid() int { return p.run.leader() }

// Exited reports whether the bot process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.run.exited:
		return true
	default:
		return false
	}
}

// Stopped is why the host stopped the bot process (it went past its disk quota: see
// sandbox.Box.WatchDisk), nil if it did not.
func (p *Process) Stopped() error { return p.run.stopReason() }

// Done is closed when the bot process has ended.
func (p *Process) Done() <-chan struct{} { return p.run.exited }

// Stderr is the last bytes the bot wrote to stderr.
func (p *Process) Stderr() string { return p.run.tail.String() }

// StderrSince is what the bot wrote to stderr after mark, as far as the kept bytes
// reach, and the mark of what it wrote so far.
func (p *Process) StderrSince(mark int64) (string, int64) { return p.run.tail.since(mark) }

// Kill stops the bot: a polite shutdown for at most grace, then SIGKILL to its whole
// process group, so that children the bot started go too.
func (p *Process) Kill(grace time.Duration) { p.Shutdown(grace) }

// waitCleanup waits (briefly) until the process has ended and its sandbox is cleaned
// up, so that an arena about to exit leaves no scratch directory or cgroup behind.
func (p *Process) waitCleanup() {
	select {
	case <-p.run.exited:
	case <-time.After(2 * time.Second):
	}
}

// groupRunner starts the bot in its own process group. Its stdout goes to go-plugin for
// the handshake; its stderr goes straight to a capped buffer, and go-plugin's stderr
// parser is handed an empty stream, so nothing a bot prints can reach that parser.
type groupRunner struct {
	cmd  *exec.Cmd
	tail *tailBuffer
	box  *sandbox.Box
	pid  int
	out  *os.File
	ctx  context.Context // the launch's: a start after it ended kills the process
	// exited closes when the bot's main process has ended; its group is killed then,
	// so that no child of a dead bot holds the pipes open.
	exited  chan struct{}
	waitErr error
	// ended closes as soon as the leader has exited (before it is reaped).
	ended chan struct{}
	// mu guards pid and reaped: the group is signalled only while its leader is known
	// not to be reaped (a zombie keeps its process and group IDs from being reused);
	// after that, only through the sandbox's cgroup.
	mu     sync.Mutex
	reaped bool
	// stopped is why the host stopped the bot (its disk quota), nil if it did not.
	stopped atomic.Pointer[error]
}

var _ runner.Runner = (*groupRunner)(nil)

func (r *groupRunner) Start(context.Context) error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	r.cmd.Stdin = nil // /dev/null
	r.cmd.Stdout, r.cmd.Stderr = outW, errW
	r.cmd.SysProcAttr = r.box.SysProcAttr()
	r.cmd.ExtraFiles = r.box.ExtraFiles()
	// The parent-death signal comes when the thread that started the process ends, not
	// the process: start it from a thread the runtime keeps (a goroutine that unlocks
	// before it returns leaves its thread alive).
	r.mu.Lock()
	runtime.LockOSThread()
	err = r.cmd.Start()
	runtime.UnlockOSThread()
	if err == nil {
		r.pid = r.cmd.Process.Pid
	}
	r.mu.Unlock()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	r.out = outR
	r.exited, r.ended = make(chan struct{}), make(chan struct{})
	r.box.WatchDisk(r.stop)
	go func() {
		// The leader has exited but is not reaped yet: its group is still ours to kill,
		// so that no child of a dead bot holds the pipes open. Then it is reaped, and
		// its group is never signalled again.
		waitExited(r.pid)
		close(r.ended)
		r.mu.Lock()
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
		r.reaped = true
		r.mu.Unlock()
		r.waitErr = r.cmd.Wait()
		r.box.Kill()
		r.box.Cleanup()
		close(r.exited)
	}()
	if r.ctx != nil && r.ctx.Err() != nil {
		r.killGroup() // cancelled while starting
	}
	go func() {
		_, _ = io.Copy(r.tail, errR)
		errR.Close()
	}()
	return nil
}

// stopReason is why the host stopped the bot, nil if it did not (or never started it).
func (r *groupRunner) stopReason() error {
	if r == nil {
		return nil
	}
	if why := r.stopped.Load(); why != nil {
		return *why
	}
	return nil
}

// stop ends a bot that went past a limit the host watches, and keeps why.
func (r *groupRunner) stop(why error) {
	r.stopped.CompareAndSwap(nil, &why)
	r.killGroup()
}

// reaperGrace bounds the wait for a subreaping helper to kill what the bot left
// behind; it needs a few milliseconds, the rest is room for a loaded machine. Past it
// the group is killed, which is all there is without the helper.
const reaperGrace = 2 * time.Second

// killGroup kills the bot's process group while its leader is unreaped, and whatever
// is in its cgroups. A subreaping helper is asked first (SIGTERM), because it kills
// the bot and every process it left, also those outside the process group, and SIGKILL
// to the group would kill the helper first.
func (r *groupRunner) killGroup() {
	if r.box.Reaps() && r.signalLeader(syscall.SIGTERM) {
		select {
		case <-r.ended:
		case <-time.After(reaperGrace):
		}
	}
	r.mu.Lock()
	if r.pid > 0 && !r.reaped {
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
	}
	r.mu.Unlock()
	r.box.Kill()
}

// signalLeader signals the bot's main process while it is known not to be reaped, and
// says whether it did.
func (r *groupRunner) signalLeader(sig syscall.Signal) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid <= 0 || r.reaped || chanClosed(r.ended) {
		return false
	}
	return syscall.Kill(r.pid, sig) == nil
}

// leader is the process ID of the bot's main process (and its group's ID).
func (r *groupRunner) leader() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

// waitExited waits until process pid has exited without reaping it (WNOWAIT), so that
// its IDs stay reserved until the caller reaps it.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

func (r *groupRunner) Diagnose(context.Context) string { return "" }
func (r *groupRunner) Stdout() io.ReadCloser           { return r.out }
func (r *groupRunner) Stderr() io.ReadCloser           { return io.NopCloser(strings.NewReader("")) }
func (r *groupRunner) Name() string                    { return r.cmd.Path }
func (r *groupRunner) ID() string                      { return strconv.Itoa(r.leader()) }
func (r *groupRunner) Wait(context.Context) error {
	<-r.exited
	// go-plugin calls Wait once it has read stdout to its end.
	r.out.Close()
	return r.waitErr
}
func (r *groupRunner) Kill(context.Context) error {
	r.killGroup()
	return nil
}
func (r *groupRunner) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (r *groupRunner) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64 // bytes written in all
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// since is what was written after mark (the kept part of it) and the new mark.
func (t *tailBuffer) since(mark int64) (string, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := int(min(max(t.total-mark, 0), int64(len(t.buf))))
	return string(t.buf[len(t.buf)-n:]), t.total
}

// Client is the process's Bot client and its connection: the raw transport, for the
// tools that test it (the bot check's health probe, the transport benchmarks). The
// match runner goes through bot.Process.
func (p *Process) Client() (botpb.BotClient, *grpc.ClientConn) { return p.bot, p.conn }

// Attach is a Process on a connection to a Bot service made elsewhere, with no process
// of its own (the transport benchmarks serve the SDK in a process of theirs): only
// OpenSeat and Client may be used on it.
func Attach(conn *grpc.ClientConn) *Process {
	return &Process{bot: botpb.NewBotClient(conn), conn: conn}
}
