package queue

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// A block's games are recorded together under its job's fence: all of them, in
// order, while the job runs in the writer's attempt; none once it was handed on; and
// when one of them cannot be written (already recorded, or not of the block), the
// others are still recorded, one by one, up to the first that fails.
func TestABlocksGamesAreRecordedTogether(t *testing.T) {
	st, pool, bots := ladderWithQueue(t)
	a, b := bots[0], bots[1]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ins, err := NewInserter(pool, nil)
	require.NoError(t, err)
	block := func() (store.Block, store.Fence) {
		blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{a.ID, b.ID}, Rotations: 4})
		require.NoError(t, err)
		res, err := ins.Insert(ctx, BlockArgs{Block: blk.ID, Game: "ivanhoe", Version: Version()}, nil)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1 WHERE id = $1`, res.Job.ID)
		require.NoError(t, err)
		return blk, store.Fence{Job: res.Job.ID, Attempt: 1}
	}
	games := func(blk store.Block, rots ...int) []store.Match {
		var ms []store.Match
		for _, rot := range rots {
			ms = append(ms, store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe", Seed: 1, ReplayData: []byte("replay"),
				Seats: []store.Seat{{Bot: a.ID, Ending: "ok"}, {Bot: b.ID, Place: 1, Ending: "ok"}}})
		}
		return ms
	}
	done := func(blk store.Block) []int {
		got, err := st.Block(ctx, blk.ID)
		require.NoError(t, err)
		return got.Done
	}

	blk, fence := block()
	got, err := st.RecordMatchesFenced(ctx, games(blk, 2, 0, 1), fence)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, []int{2, 0, 1}, []int{got[0].Rotation, got[1].Rotation, got[2].Rotation}, "in the order given")
	assert.Less(t, got[0].ID, got[1].ID)
	assert.Equal(t, []int{0, 1, 2}, done(blk))
	replay, err := st.Replay(ctx, got[1].ID)
	require.NoError(t, err)
	assert.Equal(t, "replay", string(replay), "each game's replay is stored with it")

	got, err = st.RecordMatchesFenced(ctx, games(blk, 1, 3), fence)
	require.NoError(t, err, "a game already recorded is skipped")
	require.Len(t, got, 1)
	assert.Equal(t, 3, got[0].Rotation)
	assert.Equal(t, []int{0, 1, 2, 3}, done(blk))

	blk, fence = block()
	got, err = st.RecordMatchesFenced(ctx, games(blk, 0, 9, 1), fence)
	require.Error(t, err, "rotation 9 is not of the block")
	assert.Len(t, got, 1)
	assert.Equal(t, []int{0}, done(blk), "the games before the one that failed are recorded, none after it")

	_, err = pool.Exec(ctx, `UPDATE river_job SET attempt = 2 WHERE id = $1`, fence.Job)
	require.NoError(t, err)
	got, err = st.RecordMatchesFenced(ctx, games(blk, 1, 2), fence)
	require.ErrorIs(t, err, store.ErrFenced, "the lease ran out and another worker took the job")
	assert.Empty(t, got)
	assert.Equal(t, []int{0}, done(blk), "a fenced batch records nothing")
}

// BenchmarkFencedBlockOfTwoGames is a worker's record of a block on a real PostgreSQL:
// its two games, each with a replay of about a two-player Ivanhoe game's size, under
// the job's fence (RecordMatchesFenced). Its time is mostly the round trips' waits,
// which under load the fetch of the worker's next job waits on; compare builds on one
// server at one load.
func BenchmarkFencedBlockOfTwoGames(b *testing.B) {
	st, pool, bots := ladderWithQueue(b)
	ctx := context.Background()
	ins, err := NewInserter(pool, nil)
	require.NoError(b, err)
	var replay strings.Builder
	for i := range 90 {
		fmt.Fprintf(&replay, `{"type":"decision","n":%d,"seat":%d,"choice":%d,"us":%d}`+"\n", i+1, i%2, i*7%9, 50+i*37%200)
	}
	type job struct {
		blk   store.Block
		fence store.Fence
	}
	jobs := make([]job, b.N)
	for i := range jobs {
		blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(b, err)
		res, err := ins.Insert(ctx, BlockArgs{Block: blk.ID, Game: "ivanhoe", Version: Version()}, nil)
		require.NoError(b, err)
		_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1 WHERE id = $1`, res.Job.ID)
		require.NoError(b, err)
		jobs[i] = job{blk, store.Fence{Job: res.Job.ID, Attempt: 1}}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, j := range jobs {
		var games []store.Match
		for rot := range 2 {
			now := time.Now()
			games = append(games, store.Match{Block: j.blk.ID, Rotation: rot, Game: "ivanhoe", Seed: 1, Started: now, Finished: now,
				ReplayData: []byte(replay.String()), Seats: []store.Seat{{Bot: bots[rot].ID, Ending: "ok"}, {Bot: bots[1-rot].ID, Place: 1, Ending: "ok"}}})
		}
		got, err := st.RecordMatchesFenced(ctx, games, j.fence)
		if err != nil || len(got) != 2 {
			b.Fatalf("recorded %d of 2: %v", len(got), err)
		}
	}
}
