package testlock

import (
	"os"
	"os/exec"
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

// A quiet test waits while another binary holds the lock as heavy, and goes on once
// it lets go.
func TestQuietWaitsForHeavy(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), childEnv+"=heavy")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	buf := make([]byte, 5)
	_, err = stdout.Read(buf)
	require.NoError(t, err)
	require.Equal(t, "held\n", string(buf))

	got := make(chan struct{})
	go func() {
		Quiet(t)
		close(got)
	}()
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
