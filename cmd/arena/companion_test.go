package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// TestBotsStartThroughTheProgramsBesideTheArena looks at the processes of a running
// `arena match random random`: each bot's helper (the arena's child) and the bot (the
// helper's child, which it reaps) run arena-sandbox and arena-bot when the README's
// build command put them beside the arena, and the arena itself when they are missing
// or are not of its build, which it then says in one warning line.
func TestBotsStartThroughTheProgramsBesideTheArena(t *testing.T) {
	built := t.TempDir()
	build := exec.Command("go", "build", "-o", built+"/", ".", "../arena-bot", "../arena-sandbox")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	for _, tc := range []struct {
		name         string
		files        map[string]string // file in the arena's folder: where it comes from
		helper, bot  string
		warning      string
		warningCount int
	}{
		{name: "built together", helper: "arena-sandbox", bot: "arena-bot",
			files: map[string]string{"arena": "arena", "arena-sandbox": "arena-sandbox", "arena-bot": "arena-bot"}},
		{name: "arena alone", helper: "arena", bot: "arena",
			files: map[string]string{"arena": "arena"}},
		{name: "not ours", helper: "arena", bot: "arena", warningCount: 2,
			warning: "is not of this build of the arena (it is github.com/arena-games/arena/cmd/",
			// Go programs of this module, but not the ones the arena looks for.
			files: map[string]string{"arena": "arena", "arena-sandbox": "arena-bot", "arena-bot": "arena-sandbox"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for to, from := range tc.files {
				copyFile(t, filepath.Join(built, from), filepath.Join(dir, to))
			}
			helper, bot, stderr := botProcesses(t, filepath.Join(dir, "arena"))
			assert.Equal(t, []string{tc.helper, tc.helper}, helper, "the helpers")
			assert.Equal(t, []string{tc.bot, tc.bot}, bot, "the bots")
			assert.Equal(t, tc.warningCount, strings.Count(stderr, "[WARN]"), stderr)
			if tc.warningCount > 0 {
				assert.Equal(t, tc.warningCount, strings.Count(stderr, tc.warning), stderr)
			}
		})
	}
}

// botProcesses runs a long match of the built-in random bot against itself at the
// default sandbox, finds its two bots' helpers and bots among its processes, ends the
// match with SIGINT and returns the programs they ran and what the arena wrote to
// stderr.
func botProcesses(t *testing.T, arena string) (helpers, bots []string, stderr string) {
	cmd := exec.Command(arena, "match", "random", "random", "--games", "1000000", "--no-replays", "--log-level", "info")
	cmd.Dir = t.TempDir()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	poll.Until(t, "both bots running", func() bool {
		helpers, bots = nil, nil
		for _, h := range children(cmd.Process.Pid) {
			kids := children(h)
			if len(kids) == 1 {
				helpers = append(helpers, program(h))
				bots = append(bots, program(kids[0]))
			}
		}
		return len(bots) == 2
	})
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	_ = cmd.Wait()
	return helpers, bots, errb.String()
}

// children lists a process's children, from every thread.
func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(s); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// program is the name of the program a process runs: its file's name, or the name of
// the sealed copy the sandbox made of it ("/memfd:arena-bot (deleted)").
func program(pid int) string {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return err.Error()
	}
	return strings.TrimPrefix(filepath.Base(strings.TrimSuffix(exe, " (deleted)")), "memfd:")
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o755))
}
