package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// proc is an arena process of a test (a ladder's service or coordinator, a worker),
// whose standard error the test reads as it comes. With a cache, it runs on a
// "machine" of its own (its XDG_CACHE_HOME).
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	mu   sync.Mutex
	log  strings.Builder
	// games counts the games it reported recording; block and rotation are the last.
	games           int
	block, rotation int
}

func startProc(t *testing.T, dir, cache string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(filepath.Join(bin, "arena"), args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	if cache != "" {
		p.cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	}
	stderr, err := p.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			var b, r, g int
			if _, err := fmt.Sscanf(sc.Text(), "block %d rotation %d: game %d", &b, &r, &g); err == nil {
				p.games, p.block, p.rotation = p.games+1, b, r
			}
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	})
	return p
}

func (p *proc) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// played is the number of games reported, and the block and rotation of the last.
func (p *proc) played() (games, block, rotation int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.games, p.block, p.rotation
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	_ = p.cmd.Wait()
}

// stop waits for the process to say it is up (ready: a SIGTERM before it listens for
// one would just kill it), sends SIGTERM and waits, for a minute at most (a worker
// finishes its block in flight first, a second or two with these tests' bots; the
// rest of the minute is load's room), for a clean exit.
func (p *proc) stop(t *testing.T, ready string) {
	t.Helper()
	require.True(t, poll.Within(time.Minute, func() bool { return strings.Contains(p.text(), ready) }), "%v is up: %s", p.cmd.Args[1:3], p.text())
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatalf("%v did not stop on SIGTERM: %s", p.cmd.Args[1:3], p.text())
	}
	require.NoError(t, p.cmd.Wait(), p.text())
}
