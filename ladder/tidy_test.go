package ladder

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
)

// A kill between recording a game and renaming its replay leaves the replay under
// its temporary name; a kill in a game leaves the game's partial replay. Tidy gives
// the first its name and removes the second.
func TestTidySettlesTheReplaysAKillLeft(t *testing.T) {
	st := newLadder(t, "a", "b")
	bots, err := st.Bots(ctx, false)
	require.NoError(t, err)
	b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
	require.NoError(t, err)
	p := &ArenaPlayer{ReplayDir: filepath.Join(t.TempDir(), "replays")}
	dir := blockReplayDir(p.ReplayDir, b)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	final0, final1 := filepath.Join(dir, "d0000-r0.jsonl"), filepath.Join(dir, "d0000-r1.jsonl")
	require.NoError(t, os.WriteFile(final0+arena.TempReplaySuffix, []byte("game 0\n"), 0o644))
	require.NoError(t, os.WriteFile(final1+arena.TempReplaySuffix, []byte("half a ga"), 0o644))
	_, err = st.RecordMatch(ctx, store.Match{Block: b.ID, Rotation: 0, Game: "ivanhoe", Replay: final0,
		Seats:   []store.Seat{{Bot: bots[0].ID, Ending: "ok"}, {Bot: bots[1].ID, Place: 1, Ending: "ok"}},
		Started: time.Now(), Finished: time.Now()})
	require.NoError(t, err)

	require.NoError(t, p.Tidy(ctx, st, "ivanhoe"))
	got, err := os.ReadFile(final0)
	require.NoError(t, err, "the recorded game gets its replay")
	assert.Equal(t, "game 0\n", string(got))
	assert.NoFileExists(t, final1, "a game never recorded gets no replay")
	left, err := filepath.Glob(filepath.Join(dir, "*"+arena.TempReplaySuffix))
	require.NoError(t, err)
	assert.Empty(t, left)
	require.NoError(t, p.Tidy(ctx, st, "ivanhoe"), "a second tidy finds nothing to do")
	require.NoError(t, (&ArenaPlayer{ReplayDir: filepath.Join(t.TempDir(), "none")}).Tidy(ctx, st, "ivanhoe"), "no replays yet")
}

// An OS crash can take back a game's record (the database syncs at checkpoints) and
// keep its replay under its final name; the block, open again, would refuse to
// overwrite it. Tidy removes a final replay that an open block has no record of, and
// leaves those with records, and every replay of a complete block, alone.
func TestTidyRemovesAReplayWhoseRecordACrashLost(t *testing.T) {
	st := newLadder(t, "a", "b")
	bots, err := st.Bots(ctx, false)
	require.NoError(t, err)
	seats := []store.Seat{{Bot: bots[0].ID, Ending: "ok"}, {Bot: bots[1].ID, Place: 1, Ending: "ok"}}
	p := &ArenaPlayer{ReplayDir: filepath.Join(t.TempDir(), "replays")}
	var finals [][2]string
	for range 2 {
		b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		dir := blockReplayDir(p.ReplayDir, b)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		f := [2]string{filepath.Join(dir, "d0000-r0.jsonl"), filepath.Join(dir, "d0000-r1.jsonl")}
		for _, name := range f {
			require.NoError(t, os.WriteFile(name, []byte("a game\n"), 0o644))
		}
		finals = append(finals, f)
		_, err = st.RecordMatch(ctx, store.Match{Block: b.ID, Rotation: 0, Game: "ivanhoe", Replay: f[0], Seats: seats, Started: time.Now(), Finished: time.Now()})
		require.NoError(t, err)
		if len(finals) == 2 { // the second block is complete (the crash lost nothing of it)
			_, err = st.RecordMatch(ctx, store.Match{Block: b.ID, Rotation: 1, Game: "ivanhoe", Replay: f[1], Seats: seats, Started: time.Now(), Finished: time.Now()})
			require.NoError(t, err)
		}
	}

	require.NoError(t, p.Tidy(ctx, st, "ivanhoe"))
	assert.FileExists(t, finals[0][0], "a recorded game keeps its replay")
	assert.NoFileExists(t, finals[0][1], "a game the open block has no record of loses its replay")
	assert.FileExists(t, finals[1][0])
	assert.FileExists(t, finals[1][1], "a complete block is left alone")
}
