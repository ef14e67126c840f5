package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv starts this binary as a child process: "clock" prints Scaled(1 s), "bot"
// and "helper" call CoverChild as a bot and as the sandbox's helper do.
const childEnv = "ARENA_TESTKIT_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "clock":
		CoverChild(false) // its exit code and stderr are under test: no coverage line on it
		fmt.Println(Scaled(time.Second))
		os.Exit(0)
	case "bot", "helper":
		CoverChild(os.Getenv(childEnv) == "helper")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runChild(t *testing.T, mode string, env ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	// A TMPDIR of the test's own: where a -cover child may write its coverage.
	cmd.Env = append([]string{childEnv + "=" + mode, "PATH=/usr/bin:/bin", "TMPDIR=" + t.TempDir()}, env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

func TestTheClockScaleWidensEveryScaledLimit(t *testing.T) {
	for scale, want := range map[string]string{"": "1s", "1": "1s", "2.5": "2.5s", "10": "10s"} {
		out, stderr, err := runChild(t, "clock", ClockScaleEnv+"="+scale)
		require.NoError(t, err, stderr)
		assert.Equal(t, want+"\n", out, "scale %q", scale)
	}
}

// A bad factor stops the test binary at its start with one line and exit code 2: a
// factor below 1 would narrow the clocks, one past 10 outlast the hanging test bots.
func TestABadClockScaleIsOneClearError(t *testing.T) {
	for _, scale := range []string{"abc", "0.5", "0", "-3", "11", "NaN", "Inf", "1e400"} {
		out, stderr, err := runChild(t, "clock", ClockScaleEnv+"="+scale)
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "scale %q: %s", scale, out)
		assert.Equal(t, 2, exit.ExitCode(), "scale %q", scale)
		assert.Empty(t, out)
		assert.Equal(t, fmt.Sprintf("%s=%q: want a number from 1 to 10\n", ClockScaleEnv, scale), stderr)
	}
}

func TestChildEnvCarriesTheClockScale(t *testing.T) {
	t.Setenv(ClockScaleEnv, "3")
	assert.Contains(t, ChildEnv(), ClockScaleEnv+"=3")
	out, stderr, err := runChild(t, "clock", ChildEnv()...)
	require.NoError(t, err, stderr)
	assert.Equal(t, "3s\n", out, "the child scales its own delays alike")
}

// coverFiles lists the coverage counter files in dir.
func coverFiles(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "covcounters.*"))
	require.NoError(t, err)
	return files
}

// Under -cover (go test -cover ./internal/testkit/): a child writes its coverage to the
// test's directory where it can, else to its own TMPDIR, and never says so on stderr.
func TestAChildWritesItsCoverageWhereItCanAndSilently(t *testing.T) {
	if testing.CoverMode() == "" {
		t.Skip("a binary built without -cover writes no coverage")
	}
	shared := t.TempDir()
	notADir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notADir, nil, 0o644))
	cases := []struct {
		name, mode, coverDir, where string
	}{
		{"a bot that may write to the test's directory", "bot", shared, "shared"},
		{"a bot that may not", "bot", notADir, "own"},
		{"the helper, which confines itself before it exits", "helper", shared, "own"},
		{"a child given no GOCOVERDIR", "bot", "", "own"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			own := t.TempDir()
			before := len(coverFiles(t, shared))
			_, stderr, err := runChild(t, c.mode, "GOCOVERDIR="+c.coverDir, "TMPDIR="+own)
			require.NoError(t, err)
			assert.Empty(t, stderr, "nothing about coverage on the child's stderr")
			if c.where == "shared" {
				assert.Len(t, coverFiles(t, shared), before+1, "counted with the test's coverage")
				assert.Empty(t, coverFiles(t, own))
			} else {
				assert.Len(t, coverFiles(t, own), 1, "written to its own directory")
				assert.Len(t, coverFiles(t, shared), before)
			}
		})
	}
}
