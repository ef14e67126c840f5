package ladder

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/internal/testuser"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol/sandbox"
)

// A submitted bot that writes 1 GiB into its scratch directory as it starts stopped
// every ladder run whose replays and database shared its disk, with no game recorded.
// Now the run records every game: as root the filler's tmpfs of 8 MiB answers ENOSPC
// and it plays; without root the arena stops it at every start, and the ladder
// suspends it for its crashes and plays on without it.
func TestADiskFillerDoesNotStopTheLadder(t *testing.T) {
	st := newLadder(t)
	for _, name := range []string{"random", "heuristic"} {
		_, err := AddBot(ctx, st, AddOptions{Name: name, Builtin: name})
		require.NoError(t, err)
	}
	filler := script(t, fmt.Sprintf("%s=filler exec %q \"$@\"", serveEnv, os.Args[0]))
	_, err := AddBot(ctx, st, AddOptions{Name: "filler", Path: filler})
	require.NoError(t, err)

	cfg := testSandbox // the filler starts this binary from go test's build folder
	cfg.Limits = sandbox.Limits{Disk: 8 << 20}
	sb := Sandbox(cfg, st.Dir())
	layers, err := sb.Layers()
	require.NoError(t, err)
	watched := false
	for _, l := range layers {
		watched = watched || l.Layer == sandbox.DiskWatch && l.Active
	}
	p := &ArenaPlayer{Launch: StoreLauncher(st.Dir(), testBuiltin), ReplayDir: filepath.Join(st.Dir(), "replays"), Clock: arena.DefaultClock(),
		Sandbox: sb}
	var suspended []string
	sum, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 24, Seed: 4,
		OnSuspend: func(b store.Bot, reason string) { suspended = append(suspended, b.Name+": "+reason) }})
	require.NoError(t, err, "the ladder goes on")
	assert.GreaterOrEqual(t, sum.Recorded, 24)
	games := gamesOf(t, st)
	t.Logf("games: %v; suspended: %q", games, suspended)
	if !watched {
		assert.Empty(t, suspended, "bounded by its tmpfs, the filler plays")
		assert.Greater(t, games["filler"], 8, "%v", games)
		return
	}
	require.Len(t, suspended, 1)
	assert.Regexp(t, `^filler: timed out or crashed in 3 of its 3 games.*last: crash`, suspended[0])
	assert.Greater(t, games["random"]+games["heuristic"], 24, "%v", games)
}

// Without root, the filler is stopped at every start and suspended.
func TestADiskFillerIsSuspendedWithoutRoot(t *testing.T) {
	if !testuser.Rerun(t, "^TestADiskFillerDoesNotStopTheLadder$") {
		t.Skip("not root: TestADiskFillerDoesNotStopTheLadder runs with a watched quota itself")
	}
}
