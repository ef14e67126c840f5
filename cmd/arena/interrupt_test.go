package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/protocol"
)

// stubbornEnv makes the test binary a bot that plays, then ignores every request to
// exit (go-plugin's, SIGTERM, SIGINT) until it is killed.
const stubbornEnv = "ARENA_CLI_STUBBORN_BOT"

func serveStubborn() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	protocol.Serve(engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int { return 0 }))
	select {}
}

// exitWithin waits for cmd to exit, failing past limit, and returns how long it took
// and its exit code.
func exitWithin(t *testing.T, cmd *exec.Cmd, limit time.Duration) (time.Duration, int) {
	t.Helper()
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return time.Since(began), code
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("still running %s after SIGINT", limit)
		return 0, 0
	}
}

// procsWith counts live processes whose command line contains s.
func procsWith(s string) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), s) {
			n++
		}
	}
	return n
}

// Ctrl-C ends every phase of `arena match` at once: start-up (bots that never say a
// word, with a 60 s start-up allowance), play, and the shutdown of a bot that ignores
// every request to exit (with a 60 s shutdown allowance). Each exits 130 with the
// report of what was completed, marked partial, and leaves nothing running. The promise
// is a second; the limit is 1.5 s so that the test holds at a load of 16 (the times are
// logged: 8-75 ms on an idle machine) and still fails without the cancellation: the
// stubborn bot alone holds a shutdown for go-plugin's own 2 s.
func TestInterruptEndsEveryPhase(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	silent := filepath.Join(dir, "silent")
	// A unique sleep time marks the silent bots' processes.
	require.NoError(t, os.WriteFile(silent, []byte("#!/bin/sh\nexec sleep 3017\n"), 0o755))
	stubborn := filepath.Join(dir, "stubborn")
	require.NoError(t, os.WriteFile(stubborn, []byte("#!/bin/sh\n"+stubbornEnv+"=1 exec "+self+"\n"), 0o755))

	phases := []struct {
		name    string
		args    []string
		ready   func(stderr string) bool
		partial bool
	}{
		{"start-up", []string{"match", silent, silent, "--startup", "60s", "--no-replays", "--json"},
			func(string) bool { return procsWith("3017") >= 2 }, true},
		{"play", []string{"match", "random", filepath.Join(bin, "random-bot"), "--games", "100000", "-j", "2", "--no-replays", "--json"},
			func(stderr string) bool { return strings.Contains(stderr, "d0001-r1") }, true},
		// The script starts this binary, in go test's build folder under /tmp, which
		// the bots' mount view covers: they are given it to read and run.
		{"shutdown", []string{"match", stubborn, "random", "--games", "2", "--shutdown", "60s", "--no-replays", "--json",
			"--bot-read", self},
			func(stderr string) bool { return strings.Contains(stderr, "2/2 ") }, false},
	}
	for _, p := range phases {
		t.Run(p.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(bin, "arena"), p.args...)
			cmd.Dir = dir
			var out, errb testkit.SyncBuffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			require.NoError(t, cmd.Start())
			poll.Until(t, p.name, func() bool { return p.ready(errb.String()) })
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			took, code := exitWithin(t, cmd, 1500*time.Millisecond)
			t.Logf("Ctrl-C during %s: exit %d after %s", p.name, code, took.Round(time.Millisecond))
			assert.Equal(t, exitInterrupted, code, errb.String())
			lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
			assert.Contains(t, lines[len(lines)-1], "arena: interrupted", "the last line says why")
			var rep struct {
				Partial   bool   `json:"partial"`
				StoppedBy string `json:"stopped_by"`
				Games     int    `json:"games"`
			}
			require.NoError(t, json.Unmarshal([]byte(out.String()), &rep), "the report is written: %s", out.String())
			assert.Equal(t, p.partial, rep.Partial)
			if p.partial {
				assert.Equal(t, "interrupted by the user", rep.StoppedBy)
			} else {
				assert.Equal(t, 2, rep.Games, "every game was played before the shutdown")
			}
			requireNoLeftovers(t)
			poll.Until(t, "the silent bots to be gone", func() bool { return procsWith("3017") == 0 })
		})
	}
}

// A second Ctrl-C ends the arena at once, whatever the first was doing; the bots die
// with it.
// TestTwoSignalsAtOnceAreOneInterrupt: two SIGINTs within sameSignal (GNU timeout
// signals the child and then its group) stop the run cleanly; one after that quits at
// once. In process, with the quitting replaced, so that the timing is the test's own.
func TestTwoSignalsAtOnceAreOneInterrupt(t *testing.T) {
	quits := make(chan struct{}, 1)
	defer func(q func()) { quitNow = q }(quitNow)
	quitNow = func() { quits <- struct{}{} }
	var out testkit.SyncBuffer
	ctx, stop := interruptible(context.Background(), hclog.New(&hclog.LoggerOptions{Name: "arena", Output: &out}))
	defer stop()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	<-ctx.Done()
	// The first signal was taken, and its time noted, before ctx ended: sameSignal
	// counts from then, not from the sending, which a loaded machine may delay.
	stopped := time.Now()
	assert.True(t, userStopped(ctx))
	// The second was queued behind the first (or merged with it by the kernel) before
	// the first was read, so it is read at once after it, well within sameSignal.
	poll.Until(t, "sameSignal to pass", func() bool { return time.Since(stopped) > sameSignal })
	select {
	case <-quits:
		t.Fatal("two signals at once quit the run")
	default:
	}
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	select {
	case <-quits:
	case <-time.After(poll.Limit):
		t.Fatal("a signal after sameSignal did not quit")
	}
	assert.Contains(t, out.String(), "arena: quit")
}

// TestATimeoutCommandEndsWithAPartialReport: `timeout -s INT N arena match ... --json`
// signals the arena and then its process group, two SIGINTs at once; the run stops
// cleanly with its partial JSON report and exits 130, leaving nothing running.
func TestATimeoutCommandEndsWithAPartialReport(t *testing.T) {
	cmd := exec.Command(filepath.Join(bin, "arena"), "match", "random", filepath.Join(bin, "random-bot"), "--games", "1000000", "--no-replays", "--json")
	cmd.Dir = t.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb testkit.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Start())
	poll.Until(t, "the first match", func() bool { return strings.Contains(errb.String(), "d0000-r1") })
	require.NoError(t, syscall.Kill(cmd.Process.Pid, syscall.SIGINT))
	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
	_, code := exitWithin(t, cmd, poll.Limit)
	assert.Equal(t, exitInterrupted, code, errb.String())
	assert.NotContains(t, errb.String(), "arena: quit")
	var rep struct {
		Partial bool `json:"partial"`
		Games   int  `json:"games"`
	}
	require.NoError(t, json.Unmarshal([]byte(out.String()), &rep), out.String())
	assert.True(t, rep.Partial)
	assert.Positive(t, rep.Games)
	poll.Until(t, "the bots to be gone", func() bool { return len(leftovers()) == 0 })
}
