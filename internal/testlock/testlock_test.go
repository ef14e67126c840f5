package testlock

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const childEnv = "ARENA_TESTLOCK_CHILD"

// TestMain lets this binary stand in for a heavy test binary of another package.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "heavy" {
		release := Heavy()
		os.Stdout.WriteString("held\n")
		buf := make([]byte, 1)
		_, _ = os.Stdin.Read(buf) // held until the parent closes stdin
		release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startHeavy starts this binary as a heavy test binary in dir and returns once it
// holds the lock; closing its stdin lets it go.
func startHeavy(t *testing.T, dir string) (*exec.Cmd, io.Closer) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"=heavy")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	buf := make([]byte, 5)
	_, err = io.ReadFull(stdout, buf)
	require.NoError(t, err)
	require.Equal(t, "held\n", string(buf))
	return cmd, stdin
}

// quietAsync calls QuietMain for the running test in the background: the channel
// closes once it returned; the lock is held until the test ends.
func quietAsync(t *testing.T) <-chan struct{} {
	got := make(chan struct{})
	go func() {
		t.Cleanup(QuietMain(t.Name()))
		close(got)
	}()
	return got
}

// A quiet test waits while another binary holds the lock as heavy, and goes on once
// it lets go.
func TestQuietWaitsForHeavy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	here, err := os.Getwd()
	require.NoError(t, err)
	cmd, stdin := startHeavy(t, here)

	got := quietAsync(t)
	select {
	case <-got:
		t.Fatal("the quiet test ran while a heavy binary held the lock")
	case <-time.After(200 * time.Millisecond):
		// It waits (a wrong grant would come at once, so a short look suffices).
	}
	stdin.Close()
	select {
	case <-got:
	case <-time.After(time.Minute): // the child's exit, on a loaded machine
		t.Fatal("the quiet test still waits after the heavy binary let go")
	}
	assert.NoError(t, cmd.Wait())
}

// A heavy test binary of another checkout (another module root on the machine) does
// not hold up a quiet test of this one.
func TestAnotherCheckoutsHeavyBinaryIsNotWaitedFor(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "go.mod"), []byte("module github.com/arena-games/arena\n"), 0o644))
	pkg := filepath.Join(other, "internal", "testlock")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	_, stdin := startHeavy(t, pkg)
	defer stdin.Close()

	got := quietAsync(t)
	select {
	case <-got:
	case <-time.After(time.Minute): // a free lock is taken at once; a minute is for a loaded machine
		t.Fatal("the quiet test waited for another checkout's heavy binary")
	}
}

// Every package of one module shares the lock; another root has another.
func TestTheLockIsTheModuleRootsOwn(t *testing.T) {
	here, err := os.Getwd()
	require.NoError(t, err)
	root := filepath.Dir(filepath.Dir(here))
	require.FileExists(t, filepath.Join(root, "go.mod"))
	assert.Equal(t, lockPath(here), lockPath(filepath.Join(root, "arena")), "two packages of this checkout")
	assert.Equal(t, lockPath(here), lockPath(root))
	assert.NotEqual(t, lockPath(here), lockPath(t.TempDir()), "a directory of no module")
	assert.Equal(t, os.TempDir(), filepath.Dir(lockPath(here)))
}

// QuietMain waits only when the run selects its test: go test's -run and -skip
// decide, as they do for the tests themselves.
func TestQuietMainWaitsOnlyForItsTest(t *testing.T) {
	set := func(name, value string) {
		old := flag.Lookup(name).Value.String()
		require.NoError(t, flag.Set(name, value))
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
	set("test.run", "")
	set("test.skip", "")
	assert.True(t, selected("TestLoadedClock"), "no -run: every test")
	set("test.run", "TestLoaded|TestOther")
	assert.True(t, selected("TestLoadedClock"))
	set("test.run", "TestOther/sub")
	assert.False(t, selected("TestLoadedClock"))
	set("test.run", "")
	set("test.skip", "Loaded")
	assert.False(t, selected("TestLoadedClock"), "-skip")

	set("test.skip", "")
	t.Setenv("TMPDIR", t.TempDir())
	here, err := os.Getwd()
	require.NoError(t, err)
	_, stdin := startHeavy(t, here)
	got := make(chan struct{})
	go func() {
		release := QuietMain("TestLoadedClock")
		close(got)
		release()
	}()
	select {
	case <-got:
		t.Fatal("QuietMain went on while a heavy binary held the lock")
	case <-time.After(200 * time.Millisecond): // a wrong grant would come at once
	}
	stdin.Close()
	select {
	case <-got:
	case <-time.After(time.Minute): // the child's exit, on a loaded machine
		t.Fatal("QuietMain still waits after the heavy binary let go")
	}
	// Not selected: no wait, though a heavy binary holds the lock.
	set("test.run", "TestOther")
	_, stdin = startHeavy(t, here)
	defer stdin.Close()
	unheld := make(chan struct{})
	go func() {
		QuietMain("TestLoadedClock")()
		close(unheld)
	}()
	select {
	case <-unheld:
	case <-time.After(time.Minute): // returning at once; a minute is for a loaded machine
		t.Fatal("QuietMain waited for a test the run does not select")
	}
}
