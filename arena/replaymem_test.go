package arena

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With ReplaysInMemory a match's replay reaches Commit whole, re-simulates to the
// match's end, and no file of it is written: the replay directory keeps nothing but
// the bots' stderr.
func TestReplaysInMemoryReachCommitWithoutAFile(t *testing.T) {
	cfg := testConfig(t, 4, testEntrant(t, "random-a", "random"), testEntrant(t, "random-b", "random"))
	cfg.ReplaysInMemory, cfg.LiveReplays = true, true
	committed := map[string][]byte{}
	cfg.Commit = func(m *MatchResult) error {
		require.NotEmpty(t, m.ReplayData, m.ID)
		committed[m.ID] = m.ReplayData
		return nil
	}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, rep.Matches, 4)
	for _, m := range rep.Matches {
		r, err := ReadReplay(bytes.NewReader(committed[m.ID]))
		require.NoError(t, err, m.ID)
		g, err := Resimulate(r, nil)
		require.NoError(t, err, m.ID)
		assert.Equal(t, m.Hash, hashString(g.Hash()))
		assert.Equal(t, m.Decisions, len(r.Decisions))
		assert.NotEmpty(t, m.Replay, "the replay keeps its name")
		_, err = os.Lstat(m.Replay)
		assert.ErrorIs(t, err, os.ErrNotExist, "no file under its name")
		_, err = os.Lstat(m.Replay + TempReplaySuffix)
		assert.ErrorIs(t, err, os.ErrNotExist, "nor under its temporary name")
	}
	// The folder is made only for the bots' stderr, when they wrote some.
	entries, err := os.ReadDir(cfg.ReplayDir)
	if !errors.Is(err, os.ErrNotExist) {
		require.NoError(t, err)
		require.NotEmpty(t, entries, "no empty folder is made")
		for _, e := range entries {
			assert.Regexp(t, `^stderr-.*\.log$`, e.Name())
		}
	}
}
