package testkit

import (
	"os"
	"testing"
)

// testCoverDirEnv keeps the test's GOCOVERDIR for a bot whose helper (the same binary,
// started first) pointed its own GOCOVERDIR elsewhere: the bot inherits the helper's
// environment.
const testCoverDirEnv = "ARENA_TEST_GOCOVERDIR"

// ChildEnv is what a test adds to the environment of a process it starts from its own
// binary (a bot, the sandbox's helper) when it sets that environment itself: the clock
// scale, which the process's own delays follow, and, under go test -cover, GOCOVERDIR,
// so that the process writes its coverage beside the test's (the code it ran is
// counted) and its exit adds no "GOCOVERDIR not set" line to the stderr tests read.
func ChildEnv() []string {
	var env []string
	if s := os.Getenv(ClockScaleEnv); s != "" {
		env = append(env, ClockScaleEnv+"="+s)
	}
	if dir := os.Getenv("GOCOVERDIR"); dir != "" && testing.CoverMode() != "" {
		env = append(env, "GOCOVERDIR="+dir)
	}
	return env
}

// CoverChild is the first call of a test binary started as a bot or as the sandbox's
// helper (before sandbox.RunHelper). A sandboxed process may write only to its own
// directory (TMPDIR): where it cannot write to the test's GOCOVERDIR, its coverage
// goes there and is not counted, but its exit stays silent. confined says that the
// process confines itself later (the helper applies the sandbox to itself, then exits
// after the bot), so that whether it can write now says nothing of its exit.
func CoverChild(confined bool) {
	if testing.CoverMode() == "" {
		return
	}
	dir := os.Getenv(testCoverDirEnv)
	if dir == "" {
		dir = os.Getenv("GOCOVERDIR")
		_ = os.Setenv(testCoverDirEnv, dir)
	}
	if dir != "" && !confined && writable(dir) {
		_ = os.Setenv("GOCOVERDIR", dir)
		return
	}
	_ = os.Setenv("GOCOVERDIR", os.TempDir())
}

// writable reports whether this process may create a file in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".probe")
	if err != nil {
		return false
	}
	f.Close()
	_ = os.Remove(f.Name())
	return true
}
