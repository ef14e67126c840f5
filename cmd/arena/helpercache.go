package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-games/arena/internal/fileid"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Asking the helper program for the digest of its sandbox code is an exec and a wait,
// a few milliseconds of every arena start. The answer holds as long as the file is the
// same, so it is kept in the user's cache directory under the file's identity: device,
// inode, size, modification and change times (a change time cannot be set back, so a
// file written or replaced in place has another identity), and this arena's own
// sandbox code digest. The cache is a shortcut, not a trust: a wrong entry only skips a
// check whose failure the helper reports itself, by refusing the arena's plans.

// helperCacheFile is where verified helpers are listed ("" when the user has no cache
// directory).
func helperCacheFile() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "arena", "sandbox-helpers")
}

// helperIdentity is file's identity (package fileid) and this arena's sandbox code,
// as one line.
func helperIdentity(file string) (string, bool) {
	id, err := fileid.Of(file)
	if err != nil {
		return "", false
	}
	return id + " " + sandbox.CodeDigest() + " " + file, true
}

// sameSandboxCodeOnce is sameSandboxCode, asked once per file identity: an identity
// verified before (by any arena process of this user) is not asked again.
func sameSandboxCodeOnce(file, cache string) string {
	id, ok := helperIdentity(file)
	if !ok || cache == "" {
		return sameSandboxCode(file)
	}
	known, _ := os.ReadFile(cache)
	for _, line := range strings.Split(string(known), "\n") {
		if line == id {
			return ""
		}
	}
	why := sameSandboxCode(file)
	if why == "" {
		rememberHelper(cache, string(known), id)
	}
	return why
}

// rememberHelper adds id to the cache, keeping the last few entries (a new build
// replaces the helper), through a temporary file so that no reader sees half of it.
func rememberHelper(cache, known, id string) {
	var lines []string
	for _, l := range strings.Split(known, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	const keep = 16
	if len(lines) >= keep {
		lines = lines[len(lines)-keep+1:]
	}
	lines = append(lines, id)
	if err := os.MkdirAll(filepath.Dir(cache), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(cache), ".sandbox-helpers-*")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(strings.Join(lines, "\n") + "\n")
	if cerr := tmp.Close(); err != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), cache) != nil {
		os.Remove(tmp.Name())
	}
}
