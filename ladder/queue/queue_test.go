package queue

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// A game is recorded only while its job runs in the writer's attempt: a worker whose
// job was handed on (another attempt), or finished, records nothing. A block has one
// live job however often it is enqueued.
func TestFencedRecording(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := store.OpenPostgres(ctx, url, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	pool, err := Connect(ctx, url)
	require.NoError(t, err)
	defer pool.Close()
	a, err := st.AddBot(ctx, store.Bot{Name: "a", Builtin: "random", SHA256: "aa"})
	require.NoError(t, err)
	b, err := st.AddBot(ctx, store.Bot{Name: "b", Builtin: "random", SHA256: "bb"})
	require.NoError(t, err)
	blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{a.ID, b.ID}, Rotations: 2})
	require.NoError(t, err)

	ins, err := NewInserter(pool, nil)
	require.NoError(t, err)
	args := BlockArgs{Block: blk.ID, Game: "ivanhoe", Version: Version()}
	first, err := ins.Insert(ctx, args, nil)
	require.NoError(t, err)
	again, err := ins.Insert(ctx, args, nil)
	require.NoError(t, err)
	assert.True(t, again.UniqueSkippedAsDuplicate, "one live job per block")
	assert.Equal(t, first.Job.ID, again.Job.ID)
	job := first.Job.ID

	set := func(state string, attempt int) {
		_, err := pool.Exec(ctx, `UPDATE river_job SET state = $2::river_job_state, attempt = $3,
			finalized_at = CASE WHEN $2 = 'completed' THEN now() END WHERE id = $1`, job, state, attempt)
		require.NoError(t, err)
	}
	game := func(rot int) store.Match {
		return store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe", Seed: 1,
			Seats: []store.Seat{{Bot: a.ID, Ending: "ok"}, {Bot: b.ID, Place: 1, Ending: "ok"}}}
	}
	set("running", 1)
	_, err = st.RecordMatchFenced(ctx, game(0), store.Fence{Job: job, Attempt: 1})
	require.NoError(t, err)

	set("running", 2) // the lease ran out and another worker took the job
	_, err = st.RecordMatchFenced(ctx, game(1), store.Fence{Job: job, Attempt: 1})
	require.ErrorIs(t, err, store.ErrFenced)
	got, err := st.Block(ctx, blk.ID)
	require.NoError(t, err)
	assert.Equal(t, []int{0}, got.Done, "the fenced game was not recorded")

	set("completed", 2)
	_, err = st.RecordMatchFenced(ctx, game(1), store.Fence{Job: job, Attempt: 2})
	require.ErrorIs(t, err, store.ErrFenced, "a finished job records nothing")
	set("running", 2)
	_, err = st.RecordMatchFenced(ctx, game(1), store.Fence{Job: job, Attempt: 2})
	require.NoError(t, err)
	got, err = st.Block(ctx, blk.ID)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, got.Done)

	_, err = st.RecordMatchFenced(ctx, game(1), store.Fence{Job: job + 1, Attempt: 1})
	require.ErrorIs(t, err, store.ErrFenced, "a job that does not exist records nothing")
}
