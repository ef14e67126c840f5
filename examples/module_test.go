// Package examples holds the example bots; its test builds one as an author would, in a
// module of its own outside the repository.
package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestABotBuildsInAModuleOfItsOwn: an author's bot lives in a module of its own that
// requires github.com/arena-games/arena, as docs/authors.md shows; here the requirement
// is replaced by this checkout (as with a clone of the repository), and the modules come
// from the module cache alone. (.ci/run builds the examples for macOS and Windows.)
func TestABotBuildsInAModuleOfItsOwn(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir := t.TempDir()
	mod := "module example.com/mybot\n\ngo 1.26\n\nrequire github.com/arena-games/arena v0.0.0\n\nreplace github.com/arena-games/arena => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	src, err := os.ReadFile(filepath.Join("firstbot", "main.go"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644))
	run := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		// The module cache has every module the arena needs: nothing is fetched.
		cmd.Env = append(os.Environ(), append([]string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off"}, env...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %v: %s", args, out)
	}
	run(nil, "mod", "tidy")
	run(nil, "build", "-o", filepath.Join(dir, "mybot"), ".")
}
