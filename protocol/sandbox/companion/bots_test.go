package companion

import (
	"bytes"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestABuiltInBotsProgramIsUsedOnlyWhenOfTheArenasCleanCommit builds an arena and a
// bot program of this module's name from commits of a small git repository, and
// checks the choice: the program of the same clean commit is used; one of another
// commit, of a modified tree, without version control information, of another
// package, or not a Go program is not, and the note says why; none there is no note.
func TestABuiltInBotsProgramIsUsedOnlyWhenOfTheArenasCleanCommit(t *testing.T) {
	repo := tinyModule(t)
	clean := buildTiny(t, repo)
	ours := readInfo(t, filepath.Join(clean, "arena"))

	prog, note := BotFor(filepath.Join(clean, "arena"), "random", ours)
	assert.Equal(t, filepath.Join(clean, "random"), prog, note)
	assert.Empty(t, note)

	prog, note = BotFor(filepath.Join(clean, "arena"), "ismcts", ours)
	assert.Empty(t, prog, "none beside the arena")
	assert.Empty(t, note)

	copyTo(t, filepath.Join(clean, "random"), filepath.Join(clean, "heuristic"))
	prog, note = BotFor(filepath.Join(clean, "arena"), "heuristic", ours)
	assert.Empty(t, prog, "another bot's program")
	assert.Contains(t, note, "it is github.com/arena-games/arena/cmd/bots/random, not github.com/arena-games/arena/cmd/bots/heuristic")

	script := filepath.Join(clean, "ismcts")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	prog, note = BotFor(filepath.Join(clean, "arena"), "ismcts", ours)
	assert.Empty(t, prog, "a script")
	assert.Contains(t, note, "ismcts is not a Go program")

	// Another commit: the bot's program of the next commit beside this arena.
	writeTiny(t, repo, "cmd/bots/random/main.go", "package main\n\nfunc main() { println(2) }\n")
	git(t, repo, "commit", "-q", "-am", "two")
	next := buildTiny(t, repo)
	copyTo(t, filepath.Join(clean, "arena"), filepath.Join(next, "arena"))
	prog, note = BotFor(filepath.Join(next, "arena"), "random", ours)
	assert.Empty(t, prog, "another commit")
	// The module's version names the commit (the version control settings would too).
	assert.Regexp(t, `not of this build of the arena \(module github.com/arena-games/arena v0\.0\.0-\d+-[0-9a-f]{12}\)`, note)

	// A modified tree: neither its arena's programs nor its programs beside a clean arena.
	writeTiny(t, repo, "cmd/bots/random/main.go", "package main\n\nfunc main() { println(3) }\n")
	modified := buildTiny(t, repo)
	mine := readInfo(t, filepath.Join(modified, "arena"))
	prog, note = BotFor(filepath.Join(modified, "arena"), "random", mine)
	assert.Empty(t, prog, "a modified arena")
	assert.Contains(t, note, "the arena is built from a modified tree")
	copyTo(t, filepath.Join(clean, "arena"), filepath.Join(modified, "arena"))
	prog, note = BotFor(filepath.Join(modified, "arena"), "random", ours)
	assert.Empty(t, prog, "a modified program")
	assert.Regexp(t, `not of this build of the arena \(module github.com/arena-games/arena v0\.0\.0-\d+-[0-9a-f]{12}\+dirty\)`, note)

	unstamped := buildTiny(t, repo, "-buildvcs=false")
	prog, note = BotFor(filepath.Join(unstamped, "arena"), "random", readInfo(t, filepath.Join(unstamped, "arena")))
	assert.Empty(t, prog, "no version control information")
	assert.Contains(t, note, "without version control information")
}

// TestABuiltInBotsProgramGuidedByAProfileIsOfTheSameBuild: a bot's program built with
// a profile beside its main package (default.pgo, which the arena's own package has
// not) is used beside the arena of the same clean commit; the profile is the only
// setting that may differ.
func TestABuiltInBotsProgramGuidedByAProfileIsOfTheSameBuild(t *testing.T) {
	repo := tinyModule(t)
	writeTiny(t, repo, "cmd/bots/random/default.pgo", string(emptyProfile(t)))
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "profile")
	clean := buildTiny(t, repo)
	prog := readInfo(t, filepath.Join(clean, "random"))
	guided := false
	for _, s := range prog.Settings {
		guided = guided || s.Key == profileSetting
	}
	require.True(t, guided, "the bot's program names its profile: %v", prog.Settings)

	ours := readInfo(t, filepath.Join(clean, "arena"))
	got, note := BotFor(filepath.Join(clean, "arena"), "random", ours)
	assert.Equal(t, filepath.Join(clean, "random"), got, note)
	assert.Empty(t, note)
}

// emptyProfile is a CPU profile of no samples, which the compiler takes as a profile.
func emptyProfile(t *testing.T) []byte {
	var b bytes.Buffer
	require.NoError(t, pprof.StartCPUProfile(&b))
	pprof.StopCPUProfile()
	return b.Bytes()
}

// TestABuiltInBotsProgramIsCheckedAgainWhenItChanges: the choice is kept while the
// file is the same, and made again once it was replaced.
func TestABuiltInBotsProgramIsCheckedAgainWhenItChanges(t *testing.T) {
	clean := buildTiny(t, tinyModule(t))
	exe := filepath.Join(clean, "arena")
	ours := readInfo(t, exe)
	prog, _ := botOnce(exe, "random", ours)
	assert.Equal(t, filepath.Join(clean, "random"), prog)
	prog, _ = botOnce(exe, "random", ours)
	assert.Equal(t, filepath.Join(clean, "random"), prog, "the same file, the same answer")

	replaced := filepath.Join(clean, "random.new")
	require.NoError(t, os.WriteFile(replaced, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	require.NoError(t, os.Rename(replaced, filepath.Join(clean, "random")))
	prog, note := botOnce(exe, "random", ours)
	assert.Empty(t, prog, "a replaced file is checked again")
	assert.Contains(t, note, "not a Go program")

	prog, note = botOnce(exe, "random", nil)
	assert.Empty(t, prog, "an arena without build information serves its bots itself")
	assert.Equal(t, "the arena has no build information", note)
}

// tinyModule is a git repository of one commit holding a module of the arena's name
// with two small programs at the arena's and the random bot's package paths.
func tinyModule(t *testing.T) string {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: version control information cannot be stamped")
	}
	repo := t.TempDir()
	writeTiny(t, repo, "go.mod", "module github.com/arena-games/arena\n\ngo 1.26\n")
	writeTiny(t, repo, "cmd/arena/main.go", "package main\n\nfunc main() {}\n")
	writeTiny(t, repo, "cmd/bots/random/main.go", "package main\n\nfunc main() { println(1) }\n")
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "one")
	return repo
}

func writeTiny(t *testing.T, repo, file, body string) {
	require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, file)), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, file), []byte(body), 0o644))
}

func git(t *testing.T, repo string, args ...string) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=arena", "-c", "user.email=arena@localhost", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// buildTiny builds the tiny module's programs into a new folder (with version control
// stamps unless flags say otherwise) and returns it.
func buildTiny(t *testing.T, repo string, flags ...string) string {
	out := t.TempDir()
	args := append([]string{"build", "-buildvcs=true"}, flags...)
	cmd := exec.Command("go", append(args, "-o", out+"/", "./cmd/arena", "./cmd/bots/random")...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	return out
}

func readInfo(t *testing.T, file string) *buildinfo.BuildInfo {
	info, err := buildinfo.ReadFile(file)
	require.NoError(t, err)
	return info
}

func copyTo(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to+".tmp", b, 0o755))
	require.NoError(t, os.Rename(to+".tmp", to))
}
