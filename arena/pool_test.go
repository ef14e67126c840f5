package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// poolRun plays one deal of two whoami bots with the pool (kept as bot a and b, a at
// version va) under seed, and returns, per seat file, the process tokens its stderr
// names: each file is one entrant's seat, so one line per match it played there.
func poolRun(t *testing.T, pool *Pool, seed uint64, mode string, va int64) map[string][]string {
	t.Helper()
	a, b := testEntrant(t, "a", mode), testEntrant(t, "b", mode)
	a.Keep, b.Keep = Keep{Bot: "a", Version: va}, Keep{Bot: "b", Version: 1}
	cfg := testConfig(t, 2, a, b)
	cfg.Pool, cfg.Seed, cfg.ReplayDir, cfg.MaxForfeitShare = pool, seed, "", -1
	cfg.StderrDir, cfg.StderrPerSeat = t.TempDir(), true
	_, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	files, _ := filepath.Glob(filepath.Join(cfg.StderrDir, "stderr-*-seat-*.log"))
	out := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var token, match string
			var seat int
			_, err := fmt.Sscanf(line, "whoami %s match %s seat %d", &token, &match, &seat)
			require.NoError(t, err, line)
			out[filepath.Base(f)] = append(out[filepath.Base(f)], token)
		}
	}
	return out
}

// TestAPoolKeepsEachSeatsProcessAcrossRuns: runs with a pool play in the processes the
// runs before them left, one per entrant and seat, each run's stderr its own; a run
// with a seed a process played under gets fresh ones (the same seed deals the same
// cards); a process is replaced after MaxGames matches and on a new version; and
// closing the pool leaves nothing running.
func TestAPoolKeepsEachSeatsProcessAcrossRuns(t *testing.T) {
	pool := NewPool(PoolConfig{MaxGames: 3})
	first := poolRun(t, pool, 101, "whoami", 1)
	require.Len(t, first, 4, "two entrants in two seats")
	for f, tokens := range first {
		assert.Len(t, tokens, 1, "%s: one match per seat in a deal, and only this run's stderr", f)
	}
	assert.Equal(t, 4, pool.Idle(), "every process is kept")
	second := poolRun(t, pool, 102, "whoami", 1)
	assert.Equal(t, first, second, "the same process plays each entrant's seat again")

	again := poolRun(t, pool, 101, "whoami", 1)
	for f := range again {
		assert.NotEqual(t, first[f], again[f], "%s: a process never plays under a seed twice", f)
	}
	assert.Equal(t, 8, pool.Idle())

	third := poolRun(t, pool, 103, "whoami", 1)
	assert.Equal(t, first, third, "the first processes' third match")
	assert.Equal(t, 4, pool.Idle(), "past MaxGames the first processes are stopped")

	newer := poolRun(t, pool, 104, "whoami", 2)
	for f := range newer {
		if strings.Contains(f, "-a-") {
			assert.NotEqual(t, again[f], newer[f], "%s: a new version is a new process", f)
		} else {
			assert.Equal(t, again[f], newer[f], "%s", f)
		}
	}
	assert.Equal(t, 4, pool.Idle(), "the old version's processes are stopped")
	pool.Close(context.Background(), fastClock.Shutdown)
	assert.Zero(t, pool.Idle())
	requireNoLeftovers(t)
}

// TestAForfeitedSeatsProcessIsNotKept: a process whose seat forfeited is stopped when
// its run ends, not handed to the next.
func TestAForfeitedSeatsProcessIsNotKept(t *testing.T) {
	pool := NewPool(PoolConfig{})
	first := poolRun(t, pool, 201, "whoami-illegal", 1)
	assert.Zero(t, pool.Idle())
	second := poolRun(t, pool, 202, "whoami-illegal", 1)
	for f := range first {
		assert.NotEqual(t, first[f], second[f], f)
	}
	pool.Close(context.Background(), fastClock.Shutdown)
	requireNoLeftovers(t)
}

// TestARunWithAPoolHidesItsReplays: kept processes outlive the run that started them,
// so a run whose replays its sandbox does not hide already is refused.
func TestARunWithAPoolHidesItsReplays(t *testing.T) {
	cfg := testConfig(t, 2, testEntrant(t, "a", "first"), testEntrant(t, "b", "first"))
	cfg.Pool = NewPool(PoolConfig{})
	_, err := Run(context.Background(), cfg)
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "hide the replays")
	cfg.Sandbox.Hide = []string{filepath.Dir(cfg.ReplayDir)}
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	cfg.Pool.Close(context.Background(), fastClock.Shutdown)
	requireNoLeftovers(t)
}
