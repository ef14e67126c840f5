package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// reapedEnv marks the helper's second stage: the first stays as the bot's parent.
const reapedEnv = "ARENA_SANDBOX_REAPED"

// reap is the helper's first stage. It makes itself a child subreaper, starts itself
// again (the second stage applies the plan and execs the bot) and waits. A process the
// bot starts that leaves the process group (setsid, double fork) is re-parented here
// rather than to PID 1, so when the bot ends, or the host sends SIGTERM, everything
// left is killed before the helper exits with the bot's status.
func reap() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), reapedEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The parent-death signal follows the thread that forked: keep it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	runtime.LockOSThread()
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-stop
		_ = cmd.Process.Signal(syscall.SIGKILL)
	}()
	err = cmd.Wait()
	killLeftovers()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	}
	os.Exit(code)
	return nil
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
