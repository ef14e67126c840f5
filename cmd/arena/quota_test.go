package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/protocol"
)

// fillerEnv makes the test binary a bot that writes 1 GiB into its scratch directory
// in files of 1 MiB, says on stderr how far it got, and plays.
const fillerEnv = "ARENA_CLI_FILLER_BOT"

func serveFiller() {
	fmt.Fprintln(os.Stderr, "probe: fill", attack.FillDisk(".", 1<<30))
	protocol.Serve(engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int { return 0 }))
}

// --bot-disk reaches the bots of `arena match` at every level with a quota: the
// filler gets no more than the 8 MiB asked for, and the match is played to the end.
// (As root: a tmpfs of that size; sandbox and arena tests cover the watched quota.)
func TestTheDiskQuotaFlagBoundsABotsFiles(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	filler := filepath.Join(dir, "filler")
	require.NoError(t, os.WriteFile(filler, []byte("#!/bin/sh\n"+fillerEnv+"=1 exec "+self+"\n"), 0o755))
	require.NoError(t, os.Chmod(dir, 0o755))
	for _, level := range []string{"basic", "auto"} {
		t.Run(level, func(t *testing.T) {
			replays := filepath.Join(dir, level)
			// The filler starts this binary, in go test's build folder, which bots
			// may not read unless they are given it.
			r := runArena(t, dir, "match", filler, "random", "--games", "2", "--sandbox", level, "--bot-disk", "8", "--replays", replays, "--json",
				"--bot-read", self)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Contains(t, r.stdout, `"disk-`, "a disk layer is active")
			kept, err := os.ReadFile(filepath.Join(replays, "stderr-0-filler.log"))
			require.NoError(t, err)
			m := regexp.MustCompile(`probe: fill wrote (\d+) bytes in \d+ files, then: (.*)`).FindStringSubmatch(string(kept))
			require.NotNil(t, m, "%s", kept)
			n, _ := strconv.ParseInt(m[1], 10, 64)
			assert.LessOrEqual(t, n, int64(8<<20))
			assert.Contains(t, m[2], "no space left on device")
		})
	}
	requireNoLeftovers(t)
}

func TestABadDiskQuotaIsOneLine(t *testing.T) {
	for _, v := range []string{"0", "-3", "2000000"} {
		r := runArena(t, t.TempDir(), "match", "random", "random", "--games", "2", "--no-replays", "--bot-disk", v)
		assert.Equal(t, 1, r.code)
		assert.Equal(t, "arena: --bot-disk "+v+" is not a size in MiB between 1 and 1048576\n", r.stderr)
	}
}
