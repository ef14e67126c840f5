package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Go bot's panic reaches its author: the message in the seat's detail and in
// `bot check`, the stack in its stderr, which a run without replays keeps (and names)
// because a seat forfeited.
func TestGoBotPanicReachesItsAuthor(t *testing.T) {
	dir := t.TempDir()
	bot := buildTestdataBot(t, dir, "panicbot")

	r := runArena(t, dir, "bot", "check", "--game", "ivanhoe", bot)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stdout, "FAIL  play ivanhoe")
	assert.Contains(t, r.stdout, "the policy panicked: the third decision broke me")
	assert.Contains(t, r.stdout, "main.explode", "the stack is shown")

	tmp := enterableTempDir(t)
	cmd := exec.Command(filepath.Join(bin, "arena"), "match", bot, "random", "--games", "2", "--no-replays", "--json")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	var rep struct {
		Matches []struct {
			Seats []struct {
				Ending, Detail string
			} `json:"seats"`
		} `json:"matches"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	var details []string
	for _, m := range rep.Matches {
		for _, s := range m.Seats {
			details = append(details, s.Detail)
		}
	}
	assert.Contains(t, details, "Internal: the policy panicked: the third decision broke me (stack on the bot's stderr)")
	m := regexp.MustCompile(`the bots' stderr is kept in (\S+)`).FindStringSubmatch(stderr.String())
	require.NotNil(t, m, stderr.String())
	files, _ := filepath.Glob(filepath.Join(m[1], "stderr-0-*"))
	require.Len(t, files, 1)
	kept, err := os.ReadFile(files[0])
	require.NoError(t, err)
	assert.Contains(t, string(kept), "main.explode")

	t.Run("a clean run keeps nothing", func(t *testing.T) {
		tmp := enterableTempDir(t)
		cmd := exec.Command(filepath.Join(bin, "arena"), "match", "random", "random", "--games", "2", "--no-replays")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.NotContains(t, string(out), "stderr is kept")
		left, _ := filepath.Glob(filepath.Join(tmp, "arena-stderr-*"))
		assert.Empty(t, left)
	})
}

// enterableTempDir is a temporary folder that every user may pass through, as $TMPDIR
// must be for bots that run as users of their own (t.TempDir and its parent are
// private to the test's user).
func enterableTempDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	return dir
}

// buildTestdataBot builds the bot program ./testdata/NAME into dir and returns its path.
func buildTestdataBot(t *testing.T, dir, name string) string {
	t.Helper()
	bot := filepath.Join(dir, name)
	out, err := exec.Command("go", "build", "-o", bot, "./testdata/"+name).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bot
}
