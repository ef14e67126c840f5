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
	"github.com/arena-games/arena/protocol/sandbox"
)

// TestBotsStartThroughTheHelperBesideTheArena looks at the processes of a running
// `arena match random random`: each bot's helper (the arena's child) runs arena-sandbox
// when the README's build command put it beside the arena, and the arena itself when it
// is missing or is not of the arena's build, which the arena then says in one warning
// line. The bot (the helper's child, which it reaps) is the arena either way.
func TestBotsStartThroughTheHelperBesideTheArena(t *testing.T) {
	built := t.TempDir()
	goBuild(t, ".", "-o", built+"/", ".", "../arena-sandbox")
	stale := staleHelper(t)
	script := filepath.Join(built, "script")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755))

	for _, tc := range []struct {
		name    string
		helper  string // the file put beside the arena as arena-sandbox ("": none)
		used    string // the program the helpers run
		warning string
	}{
		{name: "built together", helper: filepath.Join(built, "arena-sandbox"), used: "arena-sandbox"},
		{name: "arena alone", used: "arena"},
		{name: "another program of the module", helper: filepath.Join(built, "arena"), used: "arena",
			warning: "arena-sandbox is not of this build of the arena (it is github.com/arena-games/arena/cmd/arena, not github.com/arena-games/arena/cmd/arena-sandbox)"},
		{name: "not a Go program", helper: script, used: "arena", warning: "arena-sandbox is not a Go program"},
		{name: "other sandbox code", helper: stale, used: "arena", warning: "arena-sandbox is not of this build of the arena (its sandbox code is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			copyFile(t, filepath.Join(built, "arena"), filepath.Join(dir, "arena"))
			if tc.helper != "" {
				copyFile(t, tc.helper, filepath.Join(dir, "arena-sandbox"))
			}
			helpers, bots, _, _, stderr := botProcesses(t, filepath.Join(dir, "arena"), "random", "random")
			assert.Equal(t, []string{tc.used, tc.used}, helpers, "the helpers")
			assert.Equal(t, []string{"arena", "arena"}, bots, "the bots")
			if tc.warning == "" {
				assert.NotContains(t, stderr, "[WARN]", stderr)
				return
			}
			assert.Equal(t, 1, strings.Count(stderr, "[WARN]"), stderr)
			assert.Contains(t, stderr, tc.warning)
		})
	}
}

// botProcesses runs a long match of two bots at the default sandbox, finds its two
// bots' helpers and bots among its processes, ends the match with SIGINT and returns
// the programs they ran, the bots' arguments and confinement (confinement) and what
// the arena wrote to stderr.
func botProcesses(t *testing.T, arena, bot1, bot2 string) (helpers, bots []string, args [][]string, confined []string, stderr string) {
	cmd := exec.Command(arena, "match", bot1, bot2, "--games", "1000000", "--no-replays")
	cmd.Dir = t.TempDir()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	require.NoError(t, cmd.Start())
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	poll.Until(t, "both bots running", func() bool {
		helpers, bots, args, confined = nil, nil, nil, nil
		for _, h := range children(cmd.Process.Pid) {
			// The bot once it has been exec'd (the helper's fork runs the helper until then).
			kids := children(h)
			if len(kids) != 1 {
				continue
			}
			if a := cmdline(kids[0]); !runsHelper(a) {
				helpers = append(helpers, program(h))
				bots = append(bots, program(kids[0]))
				args = append(args, a[1:])
				confined = append(confined, confinement(kids[0]))
			}
		}
		return len(bots) == 2
	})
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	_ = cmd.Wait()
	return helpers, bots, args, confined, errb.String()
}

// confinement sums up what of a process's confinement /proc shows: the namespaces it
// does not share with this test, whether it runs as another user, and its
// no-new-privileges and seccomp modes.
func confinement(pid int) string {
	var out []string
	for _, ns := range []string{"mnt", "net", "pid"} {
		theirs, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/" + ns)
		ours, _ := os.Readlink("/proc/self/ns/" + ns)
		if theirs != ours {
			out = append(out, "own "+ns+" namespace")
		}
	}
	status, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(status), "\n") {
		k, v, _ := strings.Cut(line, ":")
		switch v = strings.Fields(v + " -")[0]; k {
		case "Uid":
			if v != strconv.Itoa(os.Getuid()) {
				out = append(out, "another user")
			}
		case "NoNewPrivs", "Seccomp":
			out = append(out, k+" "+v)
		}
	}
	return strings.Join(out, ", ")
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

// runsHelper says whether a process of these arguments runs as `PROGRAM sandbox-exec
// ...`, the helper, as a helper's fork does until it execs the bot (or has exited: no
// arguments).
func runsHelper(args []string) bool {
	return len(args) == 0 || len(args) > 1 && args[1] == sandbox.HelperArg
}

// cmdline is a process's arguments, its program's name first (none once it exited).
func cmdline(pid int) []string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
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

// goBuild runs go build in dir, without version control stamps: the stale helper is
// built outside the repository, and must differ from the arena in its code only.
func goBuild(t *testing.T, dir string, args ...string) {
	cmd := exec.Command("go", append([]string{"build", "-buildvcs=false"}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Run())
}

// staleHelper builds arena-sandbox from a copy of the module whose sandbox code has
// one comment more: the build of an uncommitted tree left beside a newer arena.
func staleHelper(t *testing.T) string {
	mod := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum", "protocol/sandbox", "cmd/arena-sandbox"} {
		to := filepath.Join(mod, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
		require.NoError(t, exec.Command("cp", "-r", filepath.Join("../..", f), to).Run())
	}
	code := filepath.Join(mod, "protocol/sandbox/code.go")
	b, err := os.ReadFile(code)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(code, append(b, "\n// another build\n"...), 0o644))
	goBuild(t, mod, "-o", mod+"/", "./cmd/arena-sandbox")
	return filepath.Join(mod, "arena-sandbox")
}
