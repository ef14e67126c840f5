package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
)

// runScript runs the script at path as a bot of the level and returns its stdout.
func runScript(t *testing.T, level Level, path string) string {
	return runScriptIn(t, testConfig(t, level), path)
}

func runScriptIn(t *testing.T, c Config, path string) string {
	t.Helper()
	box, err := c.Prepare()
	require.NoError(t, err)
	t.Cleanup(box.Cleanup)
	if c.Level != None {
		requireLayer(t, box, LandlockFS)
	}
	return strings.TrimSpace(string(runInBox(t, box, path, "PATH=/usr/bin:/bin")))
}

// runInBox runs the program at path in box with env (and the test's child
// environment) and returns its stdout; it must succeed.
func runInBox(t *testing.T, box *Box, path string, env ...string) []byte {
	t.Helper()
	cmd := commandInBox(t, box, path, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "stderr: %s", stderr.String())
	return out
}

// commandInBox is the command that starts the program at path in box with env (and
// the test's child environment).
func commandInBox(t *testing.T, box *Box, path string, env ...string) *exec.Cmd {
	t.Helper()
	name, args, env, err := box.Command(path, nil, append(env, testkit.ChildEnv()...))
	require.NoError(t, err)
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
	cmd.ExtraFiles = box.ExtraFiles()
	return cmd
}

// readableDir is a temporary folder every user may read and enter, as an author's
// folder is.
func readableDir(t *testing.T) string {
	dir := openDir(t)
	require.NoError(t, os.Chmod(dir, 0o755))
	return dir
}

// A script's interpreter is told its program's path, and Python names that path in
// every traceback: at every level a script the bot may read gets its own path, so an
// author reads `File "/home/me/bot.py", line 7`, not `File "/proc/self/fd/8"`.
func TestAScriptIsGivenItsOwnPath(t *testing.T) {
	dir := readableDir(t)
	prog := filepath.Join(dir, "bot.sh")
	require.NoError(t, os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0\"\n"), 0o755))
	for _, level := range []Level{None, Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			assert.Equal(t, prog, runScript(t, level, prog))
		})
	}
}

// A program the bot's own user may not read still runs from its sealed copy, under
// the copy's name: the bot, looking for the file it came from, cannot read it there.
func TestAPrivateScriptIsNotGivenItsPath(t *testing.T) {
	dir := readableDir(t)
	prog := filepath.Join(dir, "bot.sh")
	script := "#!/bin/sh\necho \"$0\"\ncat " + prog + " >/dev/null 2>&1 && echo read || echo refused\n"
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o700))
	for _, level := range []Level{Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			out := runScript(t, level, prog)
			lines := strings.Split(out, "\n")
			require.Len(t, lines, 2, out)
			assert.True(t, strings.HasPrefix(lines[0], "/proc/self/fd/"), "the copy's name: %q", lines[0])
			assert.Equal(t, "refused", lines[1], "the private file itself")
		})
	}
}

// A script whose interpreter lies outside the bot's view (a virtual environment beside
// the bot, not in its folder) fails to start with a line that names the interpreter and
// what to do; given that folder to read, it runs.
func TestAScriptsMissingInterpreterIsNamed(t *testing.T) {
	dir := readableDir(t)
	runtime := filepath.Join(dir, "venv")
	interp := filepath.Join(runtime, "bin", "sh")
	require.NoError(t, os.MkdirAll(filepath.Dir(interp), 0o755))
	sh, err := os.ReadFile("/bin/sh")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(interp, sh, 0o755))
	botDir := filepath.Join(dir, "bot")
	require.NoError(t, os.Mkdir(botDir, 0o755))
	prog := filepath.Join(botDir, "bot.sh")
	require.NoError(t, os.WriteFile(prog, []byte("#!"+interp+"\necho ran\n"), 0o755))
	for _, level := range []Level{Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			c := testConfig(t, level)
			box, err := c.Prepare()
			require.NoError(t, err)
			t.Cleanup(box.Cleanup)
			requireLayer(t, box, LandlockFS)
			out, err := commandInBox(t, box, prog, "PATH=/usr/bin:/bin").CombinedOutput()
			require.Error(t, err, "%s", out)
			assert.Contains(t, string(out), "the bot may not run the interpreter on its #! line, "+interp+" (give bots its folder to read")

			c.Read = []string{runtime}
			assert.Equal(t, "ran", runScriptIn(t, c, prog))
		})
	}
}

// A script in a folder the bot may not read whole (it holds the run's replays, which
// are hidden) is shown alone at its own path: it gets its name, and the hidden folder
// and the files beside it stay out of reach.
func TestAScriptBesideHiddenFilesIsGivenItsPathAlone(t *testing.T) {
	dir := readableDir(t)
	replays := filepath.Join(dir, "arena-replays")
	require.NoError(t, os.Mkdir(replays, 0o755))
	secret := filepath.Join(replays, "d0000-r0.jsonl")
	notes := filepath.Join(dir, "notes")
	for _, f := range []string{secret, notes} {
		require.NoError(t, os.WriteFile(f, []byte("the host's"), 0o644))
	}
	prog := filepath.Join(dir, "bot.sh")
	script := "#!/bin/sh\necho \"$0\"\nfor f in " + secret + " " + notes + "; do cat $f >/dev/null 2>&1 && echo read || echo refused; done\n"
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o755))
	for _, level := range []Level{Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			c := testConfig(t, level)
			c.Hide = []string{replays}
			assert.Equal(t, prog+"\nrefused\nrefused", runScriptIn(t, c, prog))
		})
	}
}

// A program in a folder hidden for itself (the ladder's store of every bot's program)
// is not shown at its path: the bot runs it by the open file's, and the folder stays
// empty in its view.
func TestAScriptInAHiddenFolderStaysHidden(t *testing.T) {
	dir := readableDir(t)
	store := filepath.Join(dir, "bots")
	require.NoError(t, os.Mkdir(store, 0o755))
	prog := filepath.Join(store, "bot.sh")
	script := "#!/bin/sh\necho \"$0\"\nls " + store + " | wc -l\n"
	require.NoError(t, os.WriteFile(prog, []byte(script), 0o755))
	c := testConfig(t, Auto)
	c.Hide = []string{store}
	out := runScriptIn(t, c, prog)
	assert.Regexp(t, `^/proc/self/fd/\d+\n0$`, out)
}
