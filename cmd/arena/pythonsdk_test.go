package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guideBot is the Python bot docs/authors.md shows first: the first python block of
// its "A bot in Python" section, as lines.
func guideBot(t *testing.T, root string) []string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs/authors.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n## A bot in Python\n")
	require.True(t, ok, "docs/authors.md has no section \"A bot in Python\"")
	_, block, ok := strings.Cut(section, "```python\n")
	require.True(t, ok, "the section shows no Python bot")
	code, _, ok := strings.Cut(block, "```")
	require.True(t, ok)
	lines := strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	require.LessOrEqual(t, len(lines), 10, "the guide's bot is ten lines:\n%s", code)
	require.True(t, strings.HasPrefix(lines[0], "#!"), "its first line names its interpreter: %q", lines[0])
	return lines
}

// writeBot writes lines as an executable bot in dir, its first line naming python.
func writeBot(t *testing.T, dir, name, python string, lines []string) string {
	t.Helper()
	lines = append([]string{"#!" + python}, lines[1:]...)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o755))
	return path
}

// installSDK does what docs/authors.md tells an author: a virtual environment over
// Debian's gRPC, and pip install of sdk/python with nothing from PyPI. It returns the
// environment's folder.
func installSDK(t *testing.T, root string) string {
	t.Helper()
	env := []string{"PATH=" + botPATH, "HOME=" + t.TempDir()}
	venv := filepath.Join(enterableTempDir(t), "arena-venv")
	run := func(name string, args ...string) {
		// Through env, so that PATH is the bot's when the name is looked up.
		cmd := exec.Command("/usr/bin/env", append([]string{name}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", name, args, out)
	}
	run("python3", "-m", "venv", "--system-site-packages", venv)
	// pip builds in the folder it is given: a copy keeps the checkout clean.
	src := filepath.Join(t.TempDir(), "python")
	run("cp", "-r", filepath.Join(root, "sdk/python"), src)
	run(filepath.Join(venv, "bin/pip"), "install", "-q", "--no-index", "--no-build-isolation", "--no-cache-dir", src)
	return venv
}

// TestTheGuidesPythonBotPlaysWithTheInstalledSDK is a new author's first hour: the SDK
// installed with pip into a fresh virtual environment, the ten-line bot of
// docs/authors.md in a folder of its own, its first line naming the environment's
// Python, checked and played against random with the environment given to read. The
// same bot made to raise forfeits with a line naming its own file and line, and the
// traceback kept beside the replays names them too; one that raises before it serves
// crashes with that line.
func TestTheGuidesPythonBotPlaysWithTheInstalledSDK(t *testing.T) {
	requireOrSkip(t, "Python's gRPC", interpreterHas(t, "python3", "-c", "import grpc, google.protobuf"))
	requireOrSkip(t, "Python's venv, pip, setuptools and wheel", interpreterHas(t, "python3", "-c", "import ensurepip, setuptools, wheel"))
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	lines := guideBot(t, root)
	venv := installSDK(t, root)
	python := filepath.Join(venv, "bin/python3")
	botDir := enterableTempDir(t)
	bot := writeBot(t, botDir, "mybot.py", python, lines)
	// As in TestOtherLanguageBotsPassCheckAndPlayEveryGame: generous clocks for a
	// loaded machine; the test is about the install and the names, not speed.
	clocks := []string{"--startup", "60s", "--decision", "10s"}

	r := runArena(t, botDir, append([]string{"bot", "check", "--game", "ivanhoe", "--bot-read", venv}, append(clocks, bot)...)...)
	clocks = append(clocks, "--bank", "10m")
	require.Equal(t, 0, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "all checks passed")
	r = runArena(t, botDir, append([]string{"match", bot, "random", "--games", "2", "--no-replays", "--json", "--bot-read", venv}, clocks...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, 2, rep.Bots[0].Endings["ok"], "%v", rep.Bots[0].Endings)

	t.Run("an exception in choose", func(t *testing.T) {
		raising := slicesReplace(lines, "random.choice(options)", "random.choice([])")
		line := lineOf(t, raising, "random.choice([])")
		bot := writeBot(t, botDir, "raising.py", python, raising)
		// Played from the bot's own folder, where the replays go: the folder is then
		// not the bot's to read, and its file is shown to it alone.
		r := runArena(t, botDir, append([]string{"match", bot, "random", "--games", "2", "--bot-read", venv}, clocks...)...)
		require.Equal(t, 0, r.code, r.stderr)
		where := "in choose at " + bot + " line " + strconv.Itoa(line)
		assert.Contains(t, r.stderr, "forfeit: raising.py, seat 0 of d0000-r0")
		assert.Contains(t, r.stderr, "the bot raised IndexError: Cannot choose from an empty sequence, "+where, r.stderr)
		logs, _ := filepath.Glob(filepath.Join(botDir, "arena-replays", "*", "stderr-0-raising.py.log"))
		require.Len(t, logs, 1, r.stderr)
		kept, err := os.ReadFile(logs[0])
		require.NoError(t, err)
		assert.Contains(t, string(kept), `File "`+bot+`", line `+strconv.Itoa(line)+", in choose")
		assert.NotContains(t, string(kept), "/proc/self/fd")
	})
	t.Run("an exception before it serves", func(t *testing.T) {
		serve := lineOf(t, lines, "arena_bot.serve(")
		failing := append(append(append([]string(nil), lines[:serve-1]...), `size = {}["size"]`), lines[serve-1:]...)
		bot := writeBot(t, botDir, "failing.py", python, failing)
		r := runArena(t, botDir, append([]string{"match", bot, "random", "--games", "2", "--replays", t.TempDir(), "--bot-read", venv}, clocks...)...)
		assert.Contains(t, r.stderr, "crash: ", r.stderr)
		assert.Contains(t, r.stderr, `arena_bot: the bot raised KeyError: 'size', in <module> at `+bot+" line "+strconv.Itoa(serve), r.stderr)
	})
	requireNoLeftovers(t)
}

// slicesReplace is lines with old replaced by new in each.
func slicesReplace(lines []string, old, new string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(l, old, new)
	}
	return out
}

// lineOf is the number (from 1) of the first line holding s.
func lineOf(t *testing.T, lines []string, s string) int {
	t.Helper()
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", s)
	return 0
}

// TestTheGuidesZipappPlays is the guide's route to a ladder: the bot and the package in
// one file made by the standard library's zipapp, run by the system's Python with no
// folder given to read, and a raise in it named by the file inside the archive.
func TestTheGuidesZipappPlays(t *testing.T) {
	requireOrSkip(t, "Python's gRPC", interpreterHas(t, "python3", "-c", "import grpc, google.protobuf"))
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	lines := guideBot(t, root)
	build := t.TempDir()
	dir := enterableTempDir(t)
	cmd := exec.Command("cp", "-r", filepath.Join(root, "sdk/python/arena_bot"), build)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	raising := slicesReplace(lines, "random.choice(options)", "random.choice([])")
	for name, code := range map[string][]string{"mybot.pyz": lines, "raising.pyz": raising} {
		writeBot(t, build, "__main__.py", "/usr/bin/env python3", code)
		zip := exec.Command("/usr/bin/env", "python3", "-m", "zipapp", build, "-p", "/usr/bin/env python3", "-o", filepath.Join(dir, name))
		zip.Env = []string{"PATH=" + botPATH}
		out, err := zip.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.NoError(t, os.Chmod(filepath.Join(dir, name), 0o755))
	}
	args := []string{"--games", "2", "--startup", "60s", "--decision", "10s", "--bank", "10m"}
	r := runArena(t, dir, append([]string{"match", filepath.Join(dir, "mybot.pyz"), "random", "--json", "--no-replays"}, args...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Equal(t, 2, rep.Bots[0].Endings["ok"], "%v", rep.Bots[0].Endings)

	r = runArena(t, dir, append([]string{"match", filepath.Join(dir, "raising.pyz"), "random", "--replays", t.TempDir()}, args...)...)
	where := "in choose at " + filepath.Join(dir, "raising.pyz", "__main__.py") + " line " + strconv.Itoa(lineOf(t, raising, "random.choice([])"))
	assert.Contains(t, r.stderr, where, r.stderr)
	requireNoLeftovers(t)
}
