package jobtable_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/queue/jobtable"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestTheTableIsRivers: the columns this package reads and the job states it names are
// those of the table River's migrations make, state for state with rivertype's
// constants. An upgrade of River that renames a column or a state, or adds a state
// that a count here would miss, fails this test.
func TestTheTableIsRivers(t *testing.T) {
	url := pgtest.URL(t)
	pgtest.Queue(t, url)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)

	rows, err := conn.Query(ctx, `SELECT unnest(enum_range(NULL::river_job_state))::text`)
	require.NoError(t, err)
	inTable, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	var inGo []string
	for _, s := range rivertype.JobStates() {
		inGo = append(inGo, string(s))
	}
	slices.Sort(inTable)
	slices.Sort(inGo)
	assert.Equal(t, inGo, inTable, "the table's job states are rivertype's")
	for _, s := range jobtable.Live {
		assert.Contains(t, inTable, string(s))
	}
	assert.ElementsMatch(t, inGo, append(slices.Clone(names(jobtable.Live)), string(rivertype.JobStateCompleted), string(rivertype.JobStateCancelled)),
		"every state is live or finished: a new state must be placed in one of them")

	cols := map[string]string{}
	rows, err = conn.Query(ctx, `SELECT column_name::text, udt_name::text FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'river_job'`)
	require.NoError(t, err)
	for rows.Next() {
		var name, typ string
		require.NoError(t, rows.Scan(&name, &typ))
		cols[name] = typ
	}
	require.NoError(t, rows.Err())
	for col, typ := range map[string]string{"id": "int8", "kind": "text", "state": "river_job_state", "attempt": "int2", "created_at": "timestamptz",
		// Rescue's
		"attempted_by": "_text", "max_attempts": "int2", "metadata": "jsonb", "errors": "_jsonb",
		"finalized_at": "timestamptz", "scheduled_at": "timestamptz"} {
		assert.Equal(t, typ, cols[col], "river_job.%s", col)
	}
}

func names(states []rivertype.JobState) []string {
	var s []string
	for _, st := range states {
		s = append(s, string(st))
	}
	return s
}

// blockJob is a job of the ladder's kind; Mode says what its worker does: "fail"
// returns an error, "hold" reports the job and waits to be released.
type blockJob struct {
	Block int64   `json:"block"`
	More  []int64 `json:"more,omitempty"`
	Mode  string  `json:"mode"`
}

func (blockJob) Kind() string { return jobtable.Kind }

type holdingWorker struct {
	river.WorkerDefaults[blockJob]
	held    chan *rivertype.JobRow
	release chan struct{}
}

func (w *holdingWorker) Work(ctx context.Context, job *river.Job[blockJob]) error {
	if job.Args.Mode == "fail" {
		return errors.New("fails on purpose")
	}
	w.held <- job.JobRow
	select {
	case <-w.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// laterRetry puts a failed job an hour away, so that it stays retryable in the test.
type laterRetry struct{}

func (laterRetry) NextRetry(*rivertype.JobRow) time.Time { return time.Now().Add(time.Hour) }

// TestHoldAndCountWithARealWorker: jobs moved through their states by a real River
// client (one run by its worker, failed, given up, scheduled, cancelled) are held and
// counted as the fence and the fleet's figures rely on.
func TestHoldAndCountWithARealWorker(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	defer pool.Close()
	c, err := jobtable.Count(ctx, pool)
	require.NoError(t, err, "no table yet: no queue")
	assert.Equal(t, jobtable.Counts{}, c)

	pgtest.Queue(t, url)
	w := &holdingWorker{held: make(chan *rivertype.JobRow, 1), release: make(chan struct{})}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Workers: workers, RetryPolicy: laterRetry{}, SkipUnknownJobCheck: true,
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 1}}})
	require.NoError(t, err)
	insert := func(mode string, opts *river.InsertOpts, more ...int64) int64 {
		r, err := client.Insert(ctx, blockJob{Mode: mode, More: more}, opts)
		require.NoError(t, err)
		return r.Job.ID
	}
	givenUp := insert("fail", &river.InsertOpts{MaxAttempts: 1})
	retrying := insert("fail", &river.InsertOpts{MaxAttempts: 2}, 2, 3) // a job of three blocks
	held := insert("hold", nil)
	require.NoError(t, client.Start(ctx))
	defer func() { require.NoError(t, client.StopAndCancel(context.Background())) }()
	var job *rivertype.JobRow
	select {
	case job = <-w.held:
	case <-ctx.Done():
		t.Fatal("the worker never ran the held job")
	}
	require.Equal(t, held, job.ID)
	// The failed jobs are finalized by River's completer, in its own time.
	require.True(t, poll.Within(time.Minute, func() bool {
		a, errA := client.JobGet(ctx, givenUp)
		b, errB := client.JobGet(ctx, retrying)
		return errA == nil && errB == nil && a.State == rivertype.JobStateDiscarded && b.State == rivertype.JobStateRetryable
	}), "the failed jobs are discarded and retryable")
	insert("hold", nil) // waits: the one slot is taken
	insert("hold", &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)})
	_, err = client.JobCancel(ctx, insert("hold", &river.InsertOpts{ScheduledAt: time.Now().Add(time.Hour)}))
	require.NoError(t, err)
	_, err = client.Insert(ctx, otherJob{}, nil)
	require.NoError(t, err)

	c, err = jobtable.Count(ctx, pool)
	require.NoError(t, err)
	assert.Equal(t, 5, c.Queued, "the blocks of the retryable job (three), the available and the scheduled one; not the running, discarded, cancelled or other-kind ones")
	assert.Equal(t, 3, c.Retrying, "the retryable job's three blocks")
	assert.Equal(t, 1, c.GivenUp)
	// The oldest waiting job (the retryable one) was enqueued in this test, which
	// has two minutes in all.
	assert.Positive(t, c.OldestQueued)
	assert.Less(t, c.OldestQueued, 2*time.Minute)

	hold := func(id int64, attempt int) error {
		tx, err := pool.Begin(ctx)
		require.NoError(t, err)
		defer tx.Rollback(ctx)
		return jobtable.Hold(ctx, tx, id, attempt)
	}
	require.NoError(t, hold(job.ID, job.Attempt), "the running job in its attempt")
	assert.ErrorIs(t, hold(job.ID, job.Attempt+1), jobtable.ErrNotHeld, "another attempt")
	assert.ErrorIs(t, hold(retrying, 1), jobtable.ErrNotHeld, "a job waiting for its retry")
	assert.ErrorIs(t, hold(job.ID+1000, 1), jobtable.ErrNotHeld, "a job that does not exist")
	close(w.release)
	require.True(t, poll.Within(time.Minute, func() bool {
		j, err := client.JobGet(ctx, job.ID)
		return err == nil && j.State == rivertype.JobStateCompleted
	}), "the held job completes")
	assert.ErrorIs(t, hold(job.ID, job.Attempt), jobtable.ErrNotHeld, "a completed job")
}

type otherJob struct{}

func (otherJob) Kind() string { return "other" }

// TestRescueHandsARunningJobBack: a job running on a client is handed back by its
// client's ID only (not by another's), its attempt error says why, the client fetches
// it again in a new attempt, and the old attempt is fenced (Hold). A job on its last
// attempt is discarded instead.
func TestRescueHandsARunningJobBack(t *testing.T) {
	url := pgtest.URL(t)
	pgtest.Queue(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, url)
	require.NoError(t, err)
	defer pool.Close()
	// Three places: the rescued attempts still run (a worker that was only slow)
	// when the job is fetched again.
	w := &holdingWorker{held: make(chan *rivertype.JobRow, 3), release: make(chan struct{})}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Workers: workers, RetryPolicy: laterRetry{}, SkipUnknownJobCheck: true,
		FetchPollInterval: 100 * time.Millisecond, Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 3}}})
	require.NoError(t, err)
	r, err := client.Insert(ctx, blockJob{Mode: "hold"}, nil)
	require.NoError(t, err)
	last, err := client.Insert(ctx, blockJob{Mode: "hold", Block: 2}, &river.InsertOpts{MaxAttempts: 1})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	defer func() { require.NoError(t, client.StopAndCancel(context.Background())) }()
	next := func() *rivertype.JobRow {
		select {
		case j := <-w.held:
			return j
		case <-ctx.Done():
			t.Fatal("the worker ran no job")
			return nil
		}
	}
	first := map[int64]*rivertype.JobRow{}
	for range 2 {
		j := next()
		first[j.ID] = j
	}
	require.Contains(t, first, r.Job.ID)
	require.Contains(t, first, last.Job.ID)

	got, err := jobtable.Rescue(ctx, pool, []string{"another client"}, "silent")
	require.NoError(t, err)
	assert.Empty(t, got, "another client's jobs only")
	got, err = jobtable.Rescue(ctx, pool, []string{"another client", client.ID()}, "worker silent")
	require.NoError(t, err)
	assert.ElementsMatch(t, []int64{r.Job.ID, last.Job.ID}, got)

	again := next()
	assert.Equal(t, r.Job.ID, again.ID, "the job is fetched again")
	assert.Equal(t, 2, again.Attempt)
	require.NotEmpty(t, again.Errors)
	assert.Equal(t, "worker silent", again.Errors[len(again.Errors)-1].Error)
	assert.Equal(t, 1, again.Errors[len(again.Errors)-1].Attempt)
	hold := func(id int64, attempt int) error {
		tx, err := pool.Begin(ctx)
		require.NoError(t, err)
		defer tx.Rollback(ctx)
		return jobtable.Hold(ctx, tx, id, attempt)
	}
	assert.ErrorIs(t, hold(r.Job.ID, 1), jobtable.ErrNotHeld, "the rescued attempt is fenced")
	assert.NoError(t, hold(r.Job.ID, 2), "the new attempt holds it")
	gone, err := client.JobGet(ctx, last.Job.ID)
	require.NoError(t, err)
	assert.Equal(t, rivertype.JobStateDiscarded, gone.State, "its last attempt spent")
	assert.NotNil(t, gone.FinalizedAt)
	close(w.release)
}
