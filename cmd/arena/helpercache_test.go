package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/protocol/sandbox"
)

// TestTheHelperIsAskedOncePerFile: the helper program is asked for its sandbox code
// once; later arenas take the answer from the cache while the file is the same, and ask
// again once it changed (here, a new modification time) or when it answered wrong.
func TestTheHelperIsAskedOncePerFile(t *testing.T) {
	dir := t.TempDir()
	count, cache := filepath.Join(dir, "asked"), filepath.Join(dir, "cache", "sandbox-helpers")
	helper := filepath.Join(dir, "arena-sandbox")
	write := func(digest string) {
		body := "#!/bin/sh\necho x >> " + count + "\necho " + digest + "\n"
		require.NoError(t, os.WriteFile(helper, []byte(body), 0o755))
	}
	asked := func() int {
		b, _ := os.ReadFile(count)
		return strings.Count(string(b), "x")
	}
	write(sandbox.CodeDigest())
	assert.Empty(t, sameSandboxCodeOnce(helper, cache))
	assert.Empty(t, sameSandboxCodeOnce(helper, cache))
	assert.Equal(t, 1, asked(), "the second arena takes the cached answer")

	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(helper, later, later))
	assert.Empty(t, sameSandboxCodeOnce(helper, cache))
	assert.Equal(t, 2, asked(), "a changed file is asked again")

	write("other-code")
	assert.Contains(t, sameSandboxCodeOnce(helper, cache), "its sandbox code is")
	assert.Contains(t, sameSandboxCodeOnce(helper, cache), "its sandbox code is")
	assert.Equal(t, 4, asked(), "a wrong answer is never cached")
}
