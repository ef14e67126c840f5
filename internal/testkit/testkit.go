// Package testkit holds the small helpers that tests of several packages share when
// they run real processes on loopback: a buffer a test may read while a process
// writes it, a free loopback address for a server the test starts, and a host's
// socket that a sandboxed bot must not reach.
package testkit

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// SyncBuffer is a bytes.Buffer safe to read while a process writes to it (an
// exec.Cmd's Stdout copies from another goroutine).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Bytes returns a copy of what was written so far.
func (s *SyncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b.Bytes()...)
}

// FreeAddr returns a loopback host:port nothing listens on at the moment of the call.
// Another process may take it before the caller does; tests that start a server on it
// are the only users of such ports here.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free loopback port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// HostSocket listens on a unix socket any user may connect to, in a folder of /tmp
// open to all, as a service of the host might (/run's are alike): what a sandboxed bot must not reach. reached takes a connection that is
// waiting, if there is one, without waiting: once the bot that tried has ended, its
// connection, had it made one, is in the listener's queue.
func HostSocket(t testing.TB) (path string, reached func() bool) {
	dir, err := os.MkdirTemp("/tmp", "host-service-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path = filepath.Join(dir, "service.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	for p, mode := range map[string]os.FileMode{dir: 0o755, path: 0o777} {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	return path, func() bool { return pending(t, ln) }
}

// pending takes a connection waiting on the listener (whose socket Go made
// non-blocking), if there is one.
func pending(t testing.TB, ln *net.UnixListener) bool {
	raw, err := ln.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var accErr error
	err = raw.Control(func(fd uintptr) {
		var c int
		if c, _, accErr = unix.Accept4(int(fd), unix.SOCK_CLOEXEC); accErr == nil {
			unix.Close(c)
		}
	})
	if err == nil && accErr != nil && accErr != unix.EAGAIN {
		err = accErr
	}
	if err != nil {
		t.Fatalf("accept on %s: %v", ln.Addr(), err)
	}
	return accErr == nil
}
