// Package testlock keeps a timing-sensitive test apart from the test binaries that
// load the machine with many processes. `go test ./...` runs packages side by side,
// and a test that promises answers in time at a stated load (its own spinners, a
// busy machine's) must not get the bot processes of another package's kill tests on
// top, which no deadline can be fair about.
//
// It is a file lock (flock) in the temporary directory: a heavy test binary holds it
// shared for its whole run (Heavy, from TestMain); a package with a quiet test holds
// it exclusively for its run when the run selects that test (QuietMain, from
// TestMain). Test code only; written here because it is twenty lines of flock, not a
// library's job.
//
// The lock belongs to one checkout: its name carries a hash of the module's root
// directory, so that go test in another clone on the same machine (another engineer's,
// a CI job's) neither waits for this one nor holds it up.
package testlock

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// lockPath is the lock file of the module whose package directory is dir (a test binary
// runs in its package's directory): in os.TempDir(), named after the module's root.
func lockPath(dir string) string {
	root := dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break // no go.mod above: the directory itself stands for the checkout
		}
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(os.TempDir(), "arena-go-test-load-"+hex.EncodeToString(sum[:6])+".lock")
}

func lock(how int) (*os.File, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(lockPath(dir), os.O_CREATE|os.O_RDWR, 0o666)
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

// QuietMain is for the TestMain of a package with a quiet test named test: when
// the run selects it (-test.run and -test.skip, read after flag.Parse), it waits here,
// before m.Run, until no heavy test binary runs, and keeps new ones from starting
// until release. Waiting in the test itself counted
// the other packages' heavy runs against this package's go test -timeout (ten
// minutes by default); before m.Run they do not count.
func QuietMain(test string) (release func()) {
	if !selected(test) {
		return func() {}
	}
	began := time.Now()
	f, err := lock(syscall.LOCK_EX)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s runs beside other test binaries: %v\n", test, err)
		return func() {}
	}
	if waited := time.Since(began); waited > time.Second {
		fmt.Fprintf(os.Stderr, "%s waited %v for other packages' heavy tests to end\n", test, waited.Round(time.Second))
	}
	return func() { f.Close() }
}

// selected reports whether go test's -test.run and -test.skip select the top-level
// test named test.
func selected(test string) bool {
	matches := func(flagName string) (bool, bool) {
		f := flag.Lookup(flagName)
		if f == nil || f.Value.String() == "" {
			return false, false
		}
		re, err := regexp.Compile(strings.Split(f.Value.String(), "/")[0])
		return err == nil && re.MatchString(test), true
	}
	if ok, given := matches("test.run"); given && !ok {
		return false
	}
	skipped, _ := matches("test.skip")
	return !skipped
}
