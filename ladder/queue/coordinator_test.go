package queue

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// ladderWithQueue is a fresh PostgreSQL ladder of three built-in bots, with River's
// tables.
func ladderWithQueue(t testing.TB) (*store.Postgres, *pgxpool.Pool, []store.Bot) {
	t.Helper()
	url := pgtest.URL(t)
	ctx := context.Background()
	st, err := store.OpenPostgres(ctx, url, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	pool, err := Connect(ctx, url)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	var bots []store.Bot
	for _, n := range []string{"a", "b", "c"} {
		b, err := st.AddBot(ctx, store.Bot{Name: n, Builtin: "random", SHA256: n})
		require.NoError(t, err)
		bots = append(bots, b)
	}
	return st, pool, bots
}

// jobBlocks lists the blocks of the jobs in a state.
func jobBlocks(t *testing.T, pool *pgxpool.Pool, states ...string) []int64 {
	t.Helper()
	var ids []int64
	rows, err := pool.Query(context.Background(), `SELECT (args->>'block')::bigint FROM river_job WHERE state::text = ANY ($1) ORDER BY 1`, states)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var id int64
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	return ids
}

// The coordinator keeps Depth blocks waiting, adds none while they wait, enqueues an
// open block that has no job (recorded by a coordinator that died before enqueueing
// it), and leaves alone an open block whose bot is suspended.
func TestCoordinatorFillsTheQueue(t *testing.T) {
	st, pool, bots := ladderWithQueue(t)
	ctx := context.Background()
	orphan, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
	require.NoError(t, err)
	held, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 2, Bots: []int64{bots[1].ID, bots[2].ID}, Rotations: 2})
	require.NoError(t, err)
	require.NoError(t, st.SuspendBot(ctx, bots[2].ID, "test"))

	co, err := testCoordinator(pool, st, 3, 2)
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	waiting := jobBlocks(t, pool, "available")
	require.Len(t, waiting, 3, "Depth blocks wait")
	assert.Contains(t, waiting, orphan.ID, "the open block without a job is enqueued")
	assert.NotContains(t, waiting, held.ID, "a block with a suspended bot stays open and unqueued")

	require.NoError(t, co.Fill(ctx))
	assert.Equal(t, waiting, jobBlocks(t, pool, "available"), "a full queue gets nothing more")

	// A worker takes one: one more block is chosen to keep three waiting.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE id = (SELECT MIN(id) FROM river_job)`)
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	assert.Len(t, jobBlocks(t, pool, "available"), 3)
	assert.Len(t, jobBlocks(t, pool, "running"), 1)
	open, err := st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	assert.Len(t, open, 5, "the orphan, the held block, and three new ones")
}

// jobOf is a River job for a block, as a worker receives it.
func jobOf(args BlockArgs) *river.Job[BlockArgs] {
	return &river.Job[BlockArgs]{JobRow: &rivertype.JobRow{ID: 1, Attempt: 1}, Args: args}
}

// A worker plays only jobs it plays identically: another build's, or a variant of
// options it was not given, are snoozed (another worker takes them); a block with a
// suspended or retired bot is cancelled and stays open; a job of a block all recorded
// is done at once.
func TestWorkerTakesOnlyWhatItPlays(t *testing.T) {
	st, _, bots := ladderWithQueue(t)
	ctx := context.Background()
	b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
	require.NoError(t, err)
	w := &blockWorker{cfg: WorkerConfig{Store: st, Player: &ladder.ArenaPlayer{}}, slots: newSlots(1)}
	var snoozed *rivertype.JobSnoozeError
	err = w.Work(ctx, jobOf(BlockArgs{Block: b.ID, Game: "ivanhoe", Version: "protocol 1, build other"}))
	require.ErrorAs(t, err, &snoozed, "another build's job")
	err = w.Work(ctx, jobOf(BlockArgs{Block: b.ID, Game: "kardinal@board-0123456789ab", Version: Version()}))
	require.ErrorAs(t, err, &snoozed, "a variant the worker has not the options of")

	var cancelled *rivertype.JobCancelError
	require.NoError(t, st.SuspendBot(ctx, bots[1].ID, "test"))
	err = w.Work(ctx, jobOf(BlockArgs{Block: b.ID, Game: "ivanhoe", Version: Version()}))
	require.ErrorAs(t, err, &cancelled, "a suspended bot's block")
	err = w.Work(ctx, jobOf(BlockArgs{Block: b.ID + 100, Game: "ivanhoe", Version: Version()}))
	require.ErrorAs(t, err, &cancelled, "a block that does not exist")
	assert.True(t, errors.Is(err, store.ErrNotFound))
}

// After an upgrade, the blocks an arena of another version queued would be snoozed by
// every worker for ever and fill the queue's depth: the coordinator cancels them and
// enqueues their blocks again for its own version, and leaves a job under way alone.
func TestCoordinatorRequeuesAnotherVersionsBlocks(t *testing.T) {
	st, pool, bots := ladderWithQueue(t)
	ctx := context.Background()
	ins, err := NewInserter(pool, nil)
	require.NoError(t, err)
	var old []int64
	for seed := range uint64(3) {
		b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: seed, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		_, err = ins.Insert(ctx, BlockArgs{Block: b.ID, Game: "ivanhoe", Version: "protocol 1, build older"}, nil)
		require.NoError(t, err)
		old = append(old, b.ID)
	}
	// The first is being played by a worker of the old version.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE (args->>'block')::bigint = $1`, old[0])
	require.NoError(t, err)

	co, err := testCoordinator(pool, st, 3, 2)
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	assert.Equal(t, old[1:], jobBlocks(t, pool, "cancelled"), "the old version's waiting jobs are cancelled")
	assert.Equal(t, old[:1], jobBlocks(t, pool, "running"), "a job under way is left to finish")
	var mine []int64
	rows, err := pool.Query(ctx, `SELECT (args->>'block')::bigint FROM river_job WHERE state = 'available' AND args->>'version' = $1 ORDER BY 1`, Version())
	require.NoError(t, err)
	for rows.Next() {
		var id int64
		require.NoError(t, rows.Scan(&id))
		mine = append(mine, id)
	}
	require.NoError(t, rows.Err())
	assert.Len(t, mine, 3, "the queue is Depth deep in this version's jobs")
	assert.Subset(t, mine, old[1:], "the cancelled blocks are queued again for this version")
}

// A new block and its job are one transaction: when enqueueing fails, no block is
// left that nobody would play.
func TestNewBlockAndItsJobAreOne(t *testing.T) {
	st, pool, bots := ladderWithQueue(t)
	ctx := context.Background()
	co, err := testCoordinator(pool, st, 1, 2)
	require.NoError(t, err)
	failing := withJob{Store: st, pg: st, enqueue: func(ctx context.Context, tx pgx.Tx, b store.Block) error {
		if err := co.enqueueTx(ctx, tx, b); err != nil {
			return err
		}
		return errors.New("the connection broke")
	}}
	_, err = failing.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 1, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
	require.Error(t, err)
	open, err := st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	assert.Empty(t, open, "no block without its job")
	assert.Empty(t, jobBlocks(t, pool, "available"), "no job without its block")

	require.NoError(t, co.Fill(ctx))
	open, err = st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, []int64{open[0].ID}, jobBlocks(t, pool, "available"), "the coordinator's block came with its job")
}

// The queue keeps a block waiting for every slot of the workers alive when they have
// more slots than Depth, so a big fleet never waits for the next tick's refill; a
// worker gone silent no longer counts.
func TestCoordinatorDepthFollowsTheFleet(t *testing.T) {
	st, pool, _ := ladderWithQueue(t)
	ctx := context.Background()
	co, err := testCoordinator(pool, st, 2, 2)
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	assert.Len(t, jobBlocks(t, pool, "available"), 2, "Depth with no worker alive")
	assert.True(t, co.low, "the queue was found empty: the next refill comes sooner")

	w, err := st.RegisterWorker(ctx, store.Worker{Host: "m1", PID: 1, Version: "dev", Engine: Version(), Slots: 5})
	require.NoError(t, err)
	require.NoError(t, co.Fill(ctx))
	assert.Len(t, jobBlocks(t, pool, "available"), 5, "a block waits per slot alive")
	assert.False(t, co.low, "all the blocks the last refill left were waiting")

	_, err = pool.Exec(ctx, `UPDATE workers SET heartbeat = now() - interval '1 hour' WHERE id = $1`, w.ID)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now()
		WHERE id IN (SELECT id FROM river_job ORDER BY id LIMIT 4)`)
	require.NoError(t, err)
	// Four blocks taken in an hour: a pace that asks for less than Depth.
	co.now = func() time.Time { return time.Now().Add(time.Hour) }
	require.NoError(t, co.Fill(ctx))
	assert.Len(t, jobBlocks(t, pool, "available"), 2, "a silent worker's slots do not count")

	// A ladder that cannot seat a table (four seats, three bots) does not hurry, even
	// with its queue empty: its ticks stay a whole Tick apart.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE state = 'available'`)
	require.NoError(t, err)
	short, err := testCoordinator(pool, st, 2, 4)
	require.NoError(t, err)
	for range 2 { // the first builds the scheduler, the second asks it for a table
		require.ErrorIs(t, short.Fill(ctx), ladder.ErrTooFewBots)
		assert.False(t, short.low)
	}
}

// The queue keeps two Ticks of the workers' pace waiting when that is more than
// Depth, so that fast workers do not find it empty before each refill; a burst counts
// as taken over the wait before the refill (a Tick, or a tenth after a low queue), and
// a slower pace lowers the depth by halves.
func TestCoordinatorKeepsPaceWithTheWorkers(t *testing.T) {
	st, pool, _ := ladderWithQueue(t)
	ctx := context.Background()
	co, err := testCoordinator(pool, st, 2, 2)
	require.NoError(t, err)
	clock := time.Now()
	co.now = func() time.Time { return clock }
	take := func() {
		_, err := pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE state = 'available'`)
		require.NoError(t, err)
	}
	fill := func(after time.Duration) int {
		clock = clock.Add(after)
		require.NoError(t, co.Fill(ctx))
		return len(jobBlocks(t, pool, "available"))
	}
	require.Equal(t, 2, fill(0), "Depth at first")
	take()
	assert.Equal(t, 4, fill(time.Second), "2 blocks taken in a Tick: 4 wait")
	take()
	assert.Equal(t, 8, fill(time.Second), "4 taken in a Tick: 8 wait")
	take()
	assert.Equal(t, 16, fill(time.Millisecond), "8 taken at once count as taken in a Tick")
	assert.Equal(t, 16, fill(time.Second), "none taken: nothing added")
	assert.Equal(t, 8, co.pace, "the pace halves")
	take()
	assert.Equal(t, 4, fill(time.Hour), "16 taken in an hour: the pace halves again")
	assert.True(t, co.low, "the queue was found empty")

	// After a low queue, Run waits a tenth of a Tick; the pace is counted over that
	// wait, or the depth would lag a fast fleet by a doubling per refill, each with an
	// empty queue.
	co.waited = time.Second / 10
	take()
	assert.Equal(t, 80, fill(time.Millisecond), "4 taken within a tenth of a Tick: 80 wait")
	co.waited = time.Second
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now()
		WHERE id IN (SELECT id FROM river_job WHERE state = 'available' ORDER BY id LIMIT 50)`)
	require.NoError(t, err)
	assert.Equal(t, 100, fill(time.Second), "50 taken in a Tick: 100 wait")
	assert.True(t, co.low, "more than half the queue was taken: the next refill comes sooner")
}

// testCoordinator is a coordinator of an Ivanhoe ladder of players seats, keeping depth
// blocks waiting, whose rescans wait for the test's own calls to Fill.
func testCoordinator(pool *pgxpool.Pool, st *store.Postgres, depth, players int) (*Coordinator, error) {
	return NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: depth, Rescan: time.Hour,
		Schedule: ladder.RunConfig{Store: st, Game: "ivanhoe", Players: players, Seed: 1}})
}

// A worker that joins makes the coordinator refill at once, not at its next Tick: a
// new worker takes the blocks waiting within a fraction of a second, and then stood
// idle until the Tick. Here the Tick is an hour, so only the join can refill.
func TestCoordinatorRefillsWhenAWorkerJoins(t *testing.T) {
	st, pool, _ := ladderWithQueue(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	unlock, err := st.LockRun(ctx)
	require.NoError(t, err)
	defer unlock()
	co, err := NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: 2, Rescan: time.Hour, Tick: time.Hour,
		Schedule: ladder.RunConfig{Store: st, Game: "ivanhoe", Players: 2, Seed: 1}})
	require.NoError(t, err)
	ran := make(chan error, 1)
	go func() { ran <- co.Run(ctx) }()
	waiting := func() int { return len(jobBlocks(t, pool, "available")) }
	poll.Until(t, "the first refill", func() bool { return waiting() == 2 })

	// The queue is taken, and the hurried refill after the first (it found the queue
	// empty) has passed; the next Tick is an hour away.
	_, err = pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now()`)
	require.NoError(t, err)
	require.False(t, poll.Within(3*time.Second/10, func() bool { return waiting() > 0 }), "no refill before the Tick without a worker joining")
	_, err = st.RegisterWorker(ctx, store.Worker{Host: "here", Slots: 1})
	require.NoError(t, err)
	poll.Until(t, "the refill after a worker joined", func() bool { return waiting() >= 2 })
	cancel()
	require.NoError(t, <-ran)
}

// A refill records its blocks with their jobs in transactions of a few: when one
// cannot be committed, none of its blocks or jobs is left, the scheduler forgets the
// tables it chose for them, and the next refill records the queue's depth, every
// block with its job.
func TestARefillsBlocksAndJobsAreOne(t *testing.T) {
	st, pool, _ := ladderWithQueue(t)
	ctx := context.Background()
	co, err := testCoordinator(pool, st, refillChunk+3, 2)
	require.NoError(t, err)
	enqueue := co.refill.enqueue
	co.refill.enqueue = func(ctx context.Context, tx pgx.Tx, jobs []river.InsertManyParams) error {
		if err := enqueue(ctx, tx, jobs); err != nil {
			return err
		}
		return errors.New("the connection broke")
	}
	require.Error(t, co.Fill(ctx))
	open, err := st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	assert.Empty(t, open, "no block without its job")
	assert.Empty(t, jobBlocks(t, pool, "available"), "no job without its block")
	assert.Nil(t, co.sched, "the scheduler is built afresh: the tables it chose were never recorded")

	co.refill.enqueue = enqueue
	require.NoError(t, co.Fill(ctx))
	open, err = st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	require.Len(t, open, refillChunk+3, "two chunks: the queue's depth")
	var ids []int64
	for _, b := range open {
		ids = append(ids, b.ID)
		assert.Len(t, b.Bots, 2, "block %d has its bots", b.ID)
	}
	assert.Equal(t, ids, jobBlocks(t, pool, "available"), "every block came with its job")
}

// BenchmarkRefillChunk is one refill chunk of refillChunk two-player blocks with their
// jobs (16 blocks a job): the blocks queued under reserved IDs and sent together at
// the commit, against one insert (a round trip) a block. Its time is mostly round
// trips' waits; compare the two on one server at one load.
//
//	ARENA_TEST_POSTGRES=$url go test -run '^$' -bench RefillChunk -benchtime 200x ./ladder/queue/
func BenchmarkRefillChunk(b *testing.B) {
	st, pool, bots := ladderWithQueue(b)
	ctx := context.Background()
	co, err := NewCoordinator(pool, CoordinatorConfig{Store: st, Depth: 1, PerJob: 16,
		Schedule: ladder.RunConfig{Store: st, Game: "ivanhoe", Players: 2}})
	require.NoError(b, err)
	for _, oneByOne := range []bool{false, true} {
		b.Run(map[bool]string{false: "batched", true: "one-by-one"}[oneByOne], func(b *testing.B) {
			for i := range b.N {
				r := co.refill
				require.NoError(b, r.begin(ctx, refillChunk))
				if oneByOne {
					r.ids = nil
				}
				for k := range refillChunk {
					_, err := r.add(ctx, store.Block{Game: "ivanhoe", Seed: uint64(i*refillChunk + k),
						Bots: []int64{bots[k%3].ID, bots[(k+1)%3].ID}, Rotations: 2})
					require.NoError(b, err)
				}
				require.NoError(b, r.commit(ctx))
			}
		})
	}
}
