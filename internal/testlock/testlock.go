// Package testlock keeps a timing-sensitive test apart from the test binaries that
// load the machine with many processes. `go test ./...` runs packages side by side,
// and a test that promises answers in time at a stated load (its own spinners, a
// busy machine's) must not get the bot processes of another package's kill tests on
// top, which no deadline can be fair about.
//
// It is a file lock (flock) in the temporary directory: a heavy test binary holds it
// shared for its whole run (Heavy, from TestMain), a quiet test holds it exclusively
// for its own run (Quiet). Test code only; written here because it is twenty lines
// of flock, not a library's job.
package testlock

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// name is the lock file in os.TempDir(), shared by every test binary of the module.
const name = "arena-go-test-load.lock"

func lock(how int) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), name), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Heavy marks the calling test binary as one that loads the machine until release is
// called: a quiet test waits for it to end, and it waits for a quiet test to end.
// Call it in TestMain after the branches where the binary serves as a bot (a bot
// must never wait for it). Should the lock fail, the binary runs unguarded.
func Heavy() (release func()) {
	f, err := lock(syscall.LOCK_SH)
	if err != nil {
		return func() {}
	}
	return func() { f.Close() }
}

// Quiet waits until no heavy test binary runs and keeps new ones from starting until
// t ends.
func Quiet(t testing.TB) {
	t.Helper()
	began := time.Now()
	f, err := lock(syscall.LOCK_EX)
	if err != nil {
		t.Logf("running beside other test binaries: %v", err)
		return
	}
	if waited := time.Since(began); waited > time.Second {
		t.Logf("waited %v for other packages' heavy tests to end", waited.Round(time.Second))
	}
	t.Cleanup(func() { f.Close() })
}
