package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/plugins/builtin"
)

// TestBuiltInBotsRunTheirOwnProgramsBesideACleanBuild builds the arena, its helper
// and two bots' programs as the operators' guide says, from a clean commit of this
// tree, and looks at the processes of a running `arena match random
// ismcts:iterations=50`: each bot (a sandbox helper's child) is its own program, the
// settings its argument, and the helpers are arena-sandbox as before. The same arena
// without the programs beside it serves the bots itself (`arena serve-bot NAME`).
// Either way the bots are confined alike.
func TestBuiltInBotsRunTheirOwnProgramsBesideACleanBuild(t *testing.T) {
	built := cleanBuild(t, "./cmd/arena", "./cmd/arena-sandbox", "./cmd/bots/random", "./cmd/bots/ismcts")

	helpers, bots, args, ownConfined, stderr := botProcesses(t, filepath.Join(built, "arena"), "random", "ismcts:iterations=50")
	assert.Equal(t, []string{"arena-sandbox", "arena-sandbox"}, helpers, "the helpers")
	assert.ElementsMatch(t, []string{"random", "ismcts"}, bots, "the bots: their own programs")
	assert.ElementsMatch(t, [][]string{{}, {"iterations=50"}}, args, "the bots' arguments: the settings")
	assert.NotContains(t, stderr, "[WARN]", stderr)
	assert.Contains(t, ownConfined[0], "NoNewPrivs 1", "a confined bot")

	alone := t.TempDir()
	for _, f := range []string{"arena", "arena-sandbox"} {
		copyFile(t, filepath.Join(built, f), filepath.Join(alone, f))
	}
	helpers, bots, args, arenaConfined, stderr := botProcesses(t, filepath.Join(alone, "arena"), "random", "ismcts:iterations=50")
	assert.Equal(t, []string{"arena-sandbox", "arena-sandbox"}, helpers, "the helpers")
	assert.Equal(t, []string{"arena", "arena"}, bots, "the bots: the arena")
	assert.ElementsMatch(t, [][]string{{"serve-bot", "random"}, {"serve-bot", "ismcts:iterations=50"}}, args)
	assert.NotContains(t, stderr, "[WARN]", stderr)
	assert.Equal(t, arenaConfined, ownConfined, "the same confinement")
}

// TestEveryBuiltInBotHasAProgram: the operators' guide builds ./cmd/bots/... for the
// built-in bots, each program named as its bot.
func TestEveryBuiltInBotHasAProgram(t *testing.T) {
	for _, name := range builtin.Names() {
		_, err := os.Stat(filepath.Join("..", "bots", name, "main.go"))
		assert.NoError(t, err, "built-in bot %s has no program in cmd/bots/%s", name, name)
	}
}

// cleanBuild builds pkgs into a new folder from a copy of this tree (its tracked and
// new files) committed to a fresh git repository, so that the programs carry the
// version control stamps of a clean commit whatever the state of the tree tested:
// the build of a modified tree serves its built-in bots itself. -trimpath lets later
// runs take the compiled packages from Go's cache.
func cleanBuild(t *testing.T, pkgs ...string) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: a build cannot be stamped as of a clean commit")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	list := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	list.Dir = root
	files, err := list.Output()
	if err != nil {
		t.Skipf("the tree at %s is not a git checkout (git ls-files: %v): its files cannot be listed to build a clean commit of", root, err)
	}
	tree := t.TempDir()
	for _, f := range strings.Split(strings.TrimSuffix(string(files), "\x00"), "\x00") {
		copyTracked(t, filepath.Join(root, f), filepath.Join(tree, f))
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "clean"}} {
		runIn(t, tree, "git", append([]string{"-c", "user.name=arena", "-c", "user.email=arena@localhost", "-c", "commit.gpgsign=false"}, args...)...)
	}
	out := t.TempDir()
	runIn(t, tree, "go", append([]string{"build", "-buildvcs=true", "-trimpath", "-o", out + "/"}, pkgs...)...)
	return out
}

// copyTracked copies a file, or a symbolic link as one, with its mode; a file deleted
// but not yet committed is left out.
func copyTracked(t *testing.T, from, to string) {
	st, err := os.Lstat(from)
	if os.IsNotExist(err) {
		return
	}
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
	if st.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(target, to))
		return
	}
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, st.Mode().Perm()))
}

func runIn(t *testing.T, dir, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), "%s %v: %s", name, args, out.String())
}
