package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
)

// jobsCarried lists the blocks of each job in a state, in job order.
func jobsCarried(t *testing.T, co *Coordinator, states ...rivertype.JobState) [][]int64 {
	t.Helper()
	res, err := co.client.JobList(context.Background(), river.NewJobListParams().Kinds(Kind).States(states...).First(1000))
	require.NoError(t, err)
	var jobs [][]int64
	for _, j := range res.Jobs {
		var a BlockArgs
		require.NoError(t, json.Unmarshal(j.EncodedArgs, &a))
		jobs = append(jobs, a.Blocks())
	}
	return jobs
}

// With PerJob blocks a job, the coordinator enqueues whole jobs of PerJob blocks, and
// counts blocks, not jobs, for its depth: Depth blocks (rounded up to whole jobs), or
// a job per slot alive; a job's later blocks are live and not enqueued again; open
// blocks without a job are enqueued PerJob to a job too.
func TestCoordinatorCountsBlocksNotJobs(t *testing.T) {
	st, pool, bots := ladderWithQueue(t)
	ctx := context.Background()
	var orphans []int64
	for seed := range uint64(4) {
		b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: seed, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		orphans = append(orphans, b.ID)
	}
	co, err := NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: 4, PerJob: 3, Rescan: time.Hour,
		Schedule: ladder.RunConfig{Store: st, Game: "ivanhoe", Players: 2, Seed: 1}})
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	jobs := jobsCarried(t, co, rivertype.JobStateAvailable)
	require.Len(t, jobs, 2, "the four open blocks without a job: a job of three and one of one, and Depth is met")
	assert.Equal(t, [][]int64{orphans[:3], orphans[3:]}, jobs)

	// A job of three is taken: one block waits, the depth asks for three more, a job.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE id = (SELECT MIN(id) FROM river_job)`)
	require.NoError(t, err)
	co.now = func() time.Time { return time.Now().Add(time.Hour) } // three blocks an hour: no pace to keep
	require.NoError(t, co.Fill(ctx))
	jobs = jobsCarried(t, co, rivertype.JobStateAvailable)
	require.Len(t, jobs, 2)
	assert.Len(t, jobs[1], 3, "a new job carries three blocks")
	assert.Len(t, jobsCarried(t, co, rivertype.JobStateRunning), 1, "the running job's blocks are not enqueued again")

	// Four slots alive: a job of three blocks waits per slot.
	_, err = st.RegisterWorker(ctx, store.Worker{Host: "m1", PID: 1, Version: "dev", Engine: Version(), Slots: 4})
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	waiting := 0
	for _, j := range jobsCarried(t, co, rivertype.JobStateAvailable) {
		waiting += len(j)
	}
	assert.Equal(t, 13, waiting, "4 slots x 3 blocks: 4 waited, 8 more rounded up to whole jobs")

	_, err = NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: 1, PerJob: MaxPerJob + 1,
		Schedule: ladder.RunConfig{Store: st, Game: "ivanhoe", Players: 2}})
	assert.Error(t, err, "more blocks a job than MaxPerJob")
}

// A job's lease and River's time limit scale with its blocks, so that a worker alive
// never loses a job of many blocks to the rescuer; each block has its own limit.
func TestAJobsLeaseScalesWithItsBlocks(t *testing.T) {
	w := &blockWorker{cfg: WorkerConfig{Lease: time.Minute, Timeout: 10 * time.Second}}
	assert.Equal(t, time.Minute, w.Timeout(jobOf(BlockArgs{Block: 1})))
	assert.Equal(t, 4*time.Minute, w.Timeout(jobOf(BlockArgs{Block: 1, More: []int64{2, 3, 4}})))
}

// A job whose blocks cannot be played (gone, or a bot suspended) is cancelled with the
// first one's reason; blocks all recorded are skipped; a job with one block to play
// and one that cannot be played plays the first and leaves the other open (not tried
// here: playing needs bots, the end-to-end tests in cmd/arena play them).
func TestAJobOfBlocksSkipsWhatItCannotPlay(t *testing.T) {
	st, _, bots := ladderWithQueue(t)
	ctx := context.Background()
	held, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
	require.NoError(t, err)
	require.NoError(t, st.SuspendBot(ctx, bots[1].ID, "test"))
	done, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 2, Bots: []int64{bots[0].ID, bots[2].ID}, Rotations: 1})
	require.NoError(t, err)
	_, err = st.RecordMatch(ctx, store.Match{Block: done.ID, Rotation: 0, Game: "ivanhoe", Seed: 2,
		Seats: []store.Seat{{Bot: bots[0].ID, Place: 1}, {Bot: bots[2].ID, Place: 2}}})
	require.NoError(t, err)
	open, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 3, Bots: []int64{bots[0].ID, bots[2].ID}, Rotations: 2})
	require.NoError(t, err)

	w := &blockWorker{cfg: WorkerConfig{Store: st, Player: &ladder.ArenaPlayer{}}, slots: newSlots(1)}
	var cancelled *rivertype.JobCancelError
	err = w.Work(ctx, jobOf(BlockArgs{Block: done.ID, More: []int64{held.ID, open.ID + 100}, Game: "ivanhoe", Version: Version()}))
	require.ErrorAs(t, err, &cancelled, "nothing to play but what cannot be played")
	assert.Contains(t, err.Error(), "retired or suspended", "the first block's reason")
	require.NoError(t, w.Work(ctx, jobOf(BlockArgs{Block: done.ID, Game: "ivanhoe", Version: Version()})), "a job all recorded is done")

	plays, err := w.prepare(ctx, jobOf(BlockArgs{Block: held.ID, More: []int64{done.ID, open.ID}, Game: "ivanhoe", Version: Version()}))
	require.NoError(t, err)
	assert.Len(t, plays, 1, "only the open block with its bots active plays")
}

// A job's records are made one after another in the background; once one fails, no
// later one is made, and the failure is seen between blocks without waiting.
func TestAJobsRecordsKeepOrderAndStopAtAFailure(t *testing.T) {
	r := newRecords()
	var order []int
	release := make(chan struct{})
	bad := errors.New("fenced")
	assert.NoError(t, r.add(func() error { <-release; order = append(order, 1); return nil }, nil))
	assert.Equal(t, context.DeadlineExceeded, r.add(func() error { order = append(order, 2); return bad }, context.DeadlineExceeded),
		"the play's error comes back at once")
	assert.NoError(t, r.failed(), "nothing failed yet: the first record waits")
	assert.NoError(t, r.add(func() error { order = append(order, 3); return nil }, nil))
	close(release)
	assert.ErrorIs(t, r.wait(), bad)
	assert.Equal(t, []int{1, 2}, order, "in order, and none after the failure")
	assert.ErrorIs(t, r.failed(), bad)
	assert.ErrorIs(t, r.wait(), bad, "a second wait gives the same")
}

// A stop's snooze hands a job back; it is no failure to report.
func TestAStopsSnoozeIsAHandBack(t *testing.T) {
	assert.True(t, HandedBack(fmt.Errorf("job: %w", river.JobSnooze(0))))
	assert.False(t, HandedBack(context.DeadlineExceeded))
	assert.False(t, HandedBack(nil))
}

// A bot suspended or retired while a job plays (here during its first block) keeps
// the job's later blocks with that bot from playing: they stay open, the others play.
// Without a new read (its last younger than the worker's recheck), they play on.
func TestAJobLeavesTheBlocksOfABotHeldMidJob(t *testing.T) {
	st, _, bots := ladderWithQueue(t)
	ctx := context.Background()
	bot, err := st.AddBot(ctx, store.Bot{Name: "d", Builtin: "random", SHA256: "d"})
	require.NoError(t, err)
	a, b, c, d := bots[0].ID, bots[1].ID, bots[2].ID, bot.ID
	run := func(recheck time.Duration, hold func()) []int64 {
		var played []int64
		play := func(block int64, bots ...int64) jobPlay {
			return jobPlay{block: block, bots: bots, play: func(context.Context) (func() error, error) {
				played = append(played, block)
				if block == 1 {
					hold()
				}
				return func() error { return nil }, nil
			}}
		}
		w := &blockWorker{cfg: WorkerConfig{Store: st}, slots: newSlots(1), recheck: recheck}
		recs := newRecords()
		require.NoError(t, w.playAll(ctx, []jobPlay{play(1, a, b), play(2, a, c), play(3, a, d), play(4, a, b)}, recs, time.Now()))
		require.NoError(t, recs.wait())
		return played
	}
	assert.Equal(t, []int64{1, 2, 3, 4}, run(time.Hour, func() {
		require.NoError(t, st.SuspendBot(ctx, c, "test"))
	}), "the job's read is fresh: it plays on")
	_, err = st.ReinstateBot(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 2, 3, 4}, run(0, func() {}), "a lifted suspension holds nothing")
	assert.Equal(t, []int64{1, 4}, run(0, func() {
		require.NoError(t, st.SuspendBot(ctx, c, "test"))
		_, err := st.RetireBot(ctx, "d")
		require.NoError(t, err)
	}), "the blocks of the suspended and the retired bot stay open")
}
