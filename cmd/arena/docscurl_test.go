package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The curl examples of docs/web-service.md work as they stand against a served
// ladder: each command, run by sh with the documented variables set, succeeds
// (curl -f fails on any refusal), the upload's form fields included.
func TestDocsCurlExamples(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl on this machine")
	}
	doc, err := os.ReadFile("../../docs/web-service.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)TestDocsCurlExamples\\. -->\n```sh\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, block, "the tested block of docs/web-service.md")
	var commands []string
	for _, line := range strings.Split(string(block[1]), "\n") {
		if strings.HasPrefix(line, "curl ") {
			commands = append(commands, line)
		}
	}
	require.Len(t, commands, 7)

	dir, db, ann, _ := newLadder(t)
	s := startServe(t, dir, db)
	defer s.stop(t)
	noisy, err := os.ReadFile(filepath.Join(bin, "noisybot"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mybot"), noisy, 0o755))
	for i, c := range commands {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LADDER="+s.base, "ARENA_TOKEN="+ann)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", c, out)
		switch i {
		case 0:
			assert.Contains(t, string(out), `"name":"mybot","version":1`, "the upload added mybot")
		case 2:
			assert.Contains(t, string(out), `"games":[]`, "a new bot has no timeouts")
		case 6:
			assert.Contains(t, string(out), `"openapi": "3.0.3"`)
		}
	}
}
