package sandbox

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sync"
)

// source is this package's code, built into every program that imports it: the arena
// and its helper programs (`arena sandbox-exec`, the arena-sandbox program, a test
// binary) each carry the code they were built from.
//
// Every file but the tests (TestTheDigestCoversTheCode keeps the list whole).
//
//go:embed cgroup.go code.go detect.go exec.go mounts.go netns.go quota.go reaper.go sandbox.go seccomp.go seccomp_amd64.go seccomp_other.go uid.go world.go
var source embed.FS

// codeDigest names the code of this package: the arena puts it in every plan, and the
// helper refuses a plan whose digest is not its own. A helper built from other sandbox
// code (an arena-sandbox program left from another build) could read the same plan
// and apply less of it, or something else; it stops with one line instead. The digest
// covers the package's code, file by file in name order; its tests are not code the
// helper runs.
var codeDigest = sync.OnceValue(func() string {
	h := sha256.New()
	names, err := fs.Glob(source, "*.go")
	if err != nil {
		panic(err) // the pattern is a constant
	}
	for _, n := range names {
		b, err := source.ReadFile(n)
		if err != nil {
			panic(err) // embedded files are always readable
		}
		h.Write([]byte(n))
		h.Write([]byte{0})
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// CodeDigest names the code of this package as built into this program: the arena
// compares it with its helper program's (`arena-sandbox digest`) before using it.
func CodeDigest() string { return codeDigest() }
