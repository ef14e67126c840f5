// Package testuser runs a test again, in a copy of its test binary, as a user without
// privilege: what the sandbox does for an arena that is not root (no mounts, no users
// of their own for the bots) is tested on a machine whose tests run as root. Test
// code only.
package testuser

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Nobody is the user the test runs as again.
const Nobody = 65534

// env marks the run as nobody, so that a test that finds itself root there fails
// instead of starting itself again without end.
const env = "ARENA_TEST_UNPRIVILEGED"

// Rerun, in a test run as root, runs the tests that pattern names (-test.run) again
// as the user nobody, fails t if they fail or skip, and returns true: the caller's test
// is done. Run by anyone else, it returns false and the caller goes on as the test
// itself. The copy of the binary and the run's temporary directory (TMPDIR) lie in a
// directory that every user may enter.
func Rerun(t *testing.T, pattern string) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	if os.Getenv(env) != "" {
		t.Fatal("still root after the switch to nobody")
	}
	// Short: the bots' sockets lie below it, and a socket's path has at most 107 bytes.
	dir, err := os.MkdirTemp("", "nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The binary's folder apart from TMPDIR: a test may give its bots the binary's
	// folder to read, and the bots' scratch directories must not lie in it.
	bin := filepath.Join(dir, "b")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(bin, filepath.Base(os.Args[0]))
	if err := copyFile(os.Args[0], exe); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "t")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", pattern, "-test.count=1", "-test.v")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + tmp, env + "=1"}
	cmd.Dir = tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("as user %d:\n%s", Nobody, out)
	switch {
	case err != nil:
		t.Fatalf("as user %d: %v", Nobody, err)
	case strings.Contains(string(out), "--- SKIP"):
		t.Fatalf("as user %d the test was skipped", Nobody)
	case !strings.Contains(string(out), "--- PASS"):
		t.Fatalf("as user %d no test ran", Nobody)
	}
	return true
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	return errors.Join(err, dst.Close())
}
