package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// reap is the helper as a subreaper: with the plan applied to this thread (so that the
// bot, forked from it, inherits every limit), it starts the bot as its child and waits.
// A process the bot starts that leaves the process group (setsid, double fork) is
// re-parented here rather than to PID 1, so when the bot ends, or the host sends
// SIGTERM, everything left is killed before the helper exits with the bot's status.
// The thread shares the bot's cgroups (on cgroup v2 the whole helper does: a few
// threads and megabytes of the bot's limits), user, Landlock domain and seccomp
// filter; the helper's other threads, which start nothing, keep its credentials. One
// process, where a second start of the helper's program (the arena's, tens of
// megabytes) used to apply the plan, saves a bot's start about one program start.
func reap(prog string, argv, env []string) error {
	cmd := &exec.Cmd{Path: prog, Args: argv, Env: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		// The parent-death signal follows the thread that forked: this locked one.
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		return err
	}
	// The bot starts meanwhile: its view has them covered already.
	go detachQuotas(otherBotsQuotas)
	go func() {
		<-stop
		_ = cmd.Process.Signal(syscall.SIGKILL)
	}()
	// The waiting and killing happen on another thread: this one carries the bot's
	// Landlock domain, which may not read /proc, and it must live until the end (the
	// bot's parent-death signal follows it). A goroutine started here never runs on
	// this locked thread, and the runtime makes new threads from a clean one.
	code := make(chan int)
	go func() { code <- waitAndKill(cmd) }()
	os.Exit(<-code)
	return nil
}

// waitAndKill waits for the bot, kills what it left behind, and returns the bot's
// exit status as a shell gives it.
func waitAndKill(cmd *exec.Cmd) int {
	err := cmd.Wait()
	killLeftovers()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	}
	return code
}

// killLeftovers kills every child of this process until none is left. A killed
// process's own children are re-parented here before it can be reaped, so the next
// round finds them.
func killLeftovers() {
	for {
		for _, pid := range children() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if _, err := unix.Wait4(-1, nil, 0, nil); errors.Is(err, unix.ECHILD) {
			return
		}
	}
}

// children lists the processes whose parent is this one.
func children() []int {
	// This process as the mounted /proc numbers it: the bot may have mounted a fresh
	// one of its PID namespace, or not yet.
	self, err := os.Readlink("/proc/self")
	if err != nil {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == self {
			out = append(out, pid)
		}
	}
	return out
}
