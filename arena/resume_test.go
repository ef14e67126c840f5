package arena

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotationsPlaysOnlyTheRotationsAsked(t *testing.T) {
	cfg := testConfig(t, 6, testEntrant(t, "first", "first"), testEntrant(t, "last", "last"), testEntrant(t, "random", "random"))
	cfg.Rotations = []int{2, 0}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	var ids []string
	for _, m := range rep.Matches {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"d0000-r0", "d0000-r2", "d0001-r0", "d0001-r2"}, ids)
	assert.Len(t, rep.DealBlocks, 2, "a deal is complete when the rotations asked for are played")

	cfg.Rotations = []int{3}
	_, err = Run(context.Background(), cfg)
	assert.ErrorIs(t, err, ErrConfig, "a 3-player deal has rotations 0-2")
}

func TestAReplayTakesItsNameOnlyWhenCommitted(t *testing.T) {
	cfg := testConfig(t, 4, testEntrant(t, "first", "first"), testEntrant(t, "last", "last"))
	cfg.Parallel = 1
	var seen []string
	refuse := errors.New("the store is full")
	cfg.Commit = func(m *MatchResult) error {
		// Committing comes before the replay has its name: a reader that finds it
		// may trust that it was committed.
		_, err := os.Stat(m.Replay)
		assert.ErrorIs(t, err, os.ErrNotExist, "%s has its name before its commit", m.ID)
		_, err = os.Stat(m.Replay + TempReplaySuffix)
		assert.NoError(t, err, "the replay is written, under its temporary name")
		seen = append(seen, m.ID)
		if len(seen) == 3 {
			return refuse
		}
		return nil
	}
	_, err := Run(context.Background(), cfg)
	require.ErrorIs(t, err, refuse)
	require.Equal(t, []string{"d0000-r0", "d0000-r1", "d0001-r0"}, seen)
	names := func() []string {
		entries, err := os.ReadDir(cfg.ReplayDir)
		require.NoError(t, err)
		var out []string
		for _, e := range entries {
			if filepath.Ext(e.Name()) == ".jsonl" {
				out = append(out, e.Name())
			}
		}
		return out
	}
	assert.Equal(t, []string{"d0000-r0.jsonl", "d0000-r1.jsonl"}, names(), "only committed matches have replays")
	assert.FileExists(t, filepath.Join(cfg.ReplayDir, "d0001-r0.jsonl"+TempReplaySuffix),
		"the refused match's replay keeps its temporary name")

	// Played again, the leftover temporary file is overwritten and the match
	// committed; replays already committed are not touched.
	cfg.Commit = nil
	cfg.Rotations = []int{0}
	cfg.Games = 4
	_, err = Run(context.Background(), cfg)
	require.ErrorContains(t, err, "d0000-r0.jsonl already exists")
	require.NoError(t, os.Remove(filepath.Join(cfg.ReplayDir, "d0000-r0.jsonl")))
	require.NoError(t, os.Remove(filepath.Join(cfg.ReplayDir, "d0000-r1.jsonl")))
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"d0000-r0.jsonl", "d0001-r0.jsonl"}, names())
	for _, m := range rep.Matches {
		r := readReplay(t, m.Replay)
		_, err := Resimulate(r, nil)
		assert.NoError(t, err)
	}
	requireNoLeftovers(t)
}

// TestAStoppedRunLeavesNoTemporaryReplay: the matches in flight when a run stops (here
// Config.Stop, as a sequential test that decided; Ctrl-C and a disqualification cancel
// alike) are neither committed nor left behind under their temporary names.
func TestAStoppedRunLeavesNoTemporaryReplay(t *testing.T) {
	cfg := testConfig(t, 40, testEntrant(t, "first", "first"), testEntrant(t, "random", "random"))
	cfg.Parallel = 4
	cfg.Stop = func(DealBlock) bool { return true }
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.True(t, rep.Stopped)
	temps, err := filepath.Glob(filepath.Join(cfg.ReplayDir, "*"+TempReplaySuffix))
	require.NoError(t, err)
	assert.Empty(t, temps)
	replays, err := filepath.Glob(filepath.Join(cfg.ReplayDir, "*.jsonl"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(replays), 2, "the deal that decided is kept")
	requireNoLeftovers(t)
}
