// Package jobtable is the one place that reads or writes River's job table (river_job)
// with SQL. Everything else goes through River's client API (Insert, JobList,
// JobCancel); three things cannot: the fence of a game's record, which must
// share-lock the job's row in the game's own transaction (River's JobGetTx reads
// without a lock), the queue's figures for the fleet's metrics, counted in the
// database rather than listed row by row on every scrape, and the rescue of a silent
// worker's running jobs (River's JobRetry leaves a running job alone; its own rescuer
// waits for the job's lease).
//
// The table is River's, not ours, so an upgrade of River may change it. The state
// names here are rivertype's constants, and the package's tests check the columns and
// the states of the table River's migrations make against them: an upgrade that
// changes what is read here fails those tests, not a running ladder.
package jobtable

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river/rivertype"
)

// Kind is the River job kind of a ladder's block.
const Kind = "arena_block"

// Waiting are the states of a job not yet taken by a worker; Live adds those of a job
// being played, and discarded: a job given up after its last attempt keeps its block
// from being enqueued again.
var (
	Waiting = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled}
	Live = append(append([]rivertype.JobState{}, Waiting...), rivertype.JobStateRunning, rivertype.JobStateDiscarded)
)

// ErrNotHeld is wrapped by Hold's error when the job is not running in that attempt.
var ErrNotHeld = errors.New("the job is no longer this worker's")

// Hold share-locks job's row in tx and checks that the job is running in attempt: until
// tx ends, River cannot hand the job on (its rescue waits for the lock). The error
// wraps ErrNotHeld when the job is gone, finished or in another attempt.
func Hold(ctx context.Context, tx pgx.Tx, job int64, attempt int) error {
	var state rivertype.JobState
	var now int
	err := tx.QueryRow(ctx, holdQuery, job).Scan(&state, &now)
	return held(err, job, attempt, state, now)
}

// QueueHold is Hold queued in a batch b sent in a transaction, so that the hold costs
// no round trip of its own: the function it returns gives Hold's verdict once b's
// results are read (nil before). When the job is not held, the statement queued after
// the hold fails (a division by zero) and aborts the transaction, so that a batch may
// carry its own COMMIT: the statements queued after the hold then run only while the
// job is held.
func QueueHold(b *pgx.Batch, job int64, attempt int) func() error {
	verdict := error(nil)
	b.Queue(holdQuery, job).QueryRow(func(row pgx.Row) error {
		var state rivertype.JobState
		var now int
		err := row.Scan(&state, &now)
		verdict = held(err, job, attempt, state, now)
		if errors.Is(verdict, ErrNotHeld) {
			return nil // a verdict, not a failure of the batch
		}
		return verdict
	})
	b.Queue(heldOrAbort, job, attempt)
	return func() error { return verdict }
}

// heldOrAbort fails unless the job (share-locked by holdQuery just before, so that
// it cannot have changed) is running in that attempt: SQL has no statement that raises
// an error, and a division by a count the planner cannot fold is the plainest one.
const heldOrAbort = `SELECT 1 / COUNT(*)::integer FROM river_job WHERE id = $1 AND state = 'running' AND attempt = $2`

const holdQuery = `SELECT state::text, attempt FROM river_job WHERE id = $1 FOR SHARE`

// held is Hold's verdict on what its query found.
func held(err error, job int64, attempt int, state rivertype.JobState, now int) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: job %d is gone", ErrNotHeld, job)
	}
	if err != nil {
		return err
	}
	if state != rivertype.JobStateRunning || now != attempt {
		return fmt.Errorf("%w: job %d is %s in attempt %d, this was attempt %d", ErrNotHeld, job, state, now, attempt)
	}
	return nil
}

// Querier is a pool, a connection or a transaction.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Counts are the queue's blocks at one moment, by the database's clock: a job carries
// its block ("block") and any more ("more", a list).
type Counts struct {
	// Queued: waiting, not discarded; OldestQueued: how long ago the oldest of them
	// was enqueued (0 for none).
	Queued       int
	OldestQueued time.Duration
	// GivenUp: discarded after their job's last attempt; Retrying: waiting after a
	// failed attempt.
	GivenUp, Retrying int
}

// Count counts the blocks of the block jobs; before River's migrations made the table
// there is no queue, and all counts are 0.
func Count(ctx context.Context, q Querier) (Counts, error) {
	var c Counts
	var oldest float64
	const blocks = `COALESCE(SUM(1 + COALESCE(jsonb_array_length(args->'more'), 0))`
	err := q.QueryRow(ctx, `SELECT `+blocks+` FILTER (WHERE state = ANY ($2::text[]::river_job_state[])), 0),
			COALESCE(EXTRACT(EPOCH FROM now() - MIN(created_at) FILTER (WHERE state = ANY ($2::text[]::river_job_state[]))), 0)::float8,
			`+blocks+` FILTER (WHERE state = $3::text::river_job_state), 0), `+blocks+` FILTER (WHERE state = $4::text::river_job_state), 0)
		FROM river_job WHERE kind = $1 AND state = ANY ($5::text[]::river_job_state[])`,
		Kind, names(Waiting), string(rivertype.JobStateDiscarded), string(rivertype.JobStateRetryable),
		names(append(append([]rivertype.JobState{}, Waiting...), rivertype.JobStateDiscarded))).
		Scan(&c.Queued, &oldest, &c.GivenUp, &c.Retrying)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P01" { // undefined_table
		return Counts{}, nil
	}
	c.OldestQueued = time.Duration(oldest * float64(time.Second))
	return c, err
}

// names are the states as the table spells them.
func names(states []rivertype.JobState) []string {
	s := make([]string, len(states))
	for i, st := range states {
		s[i] = string(st)
	}
	return s
}

// Rescue hands back to the queue at once the running jobs last taken by the River
// clients named (a worker's client ID, River's attempted_by), as River's rescuer does
// once a job's lease has run out: each gets an attempt error saying why; a job on its
// last attempt is discarded and one whose cancel was asked for is cancelled, as there;
// the rest are available again, to be taken by the next fetch (River's rescuer waits
// for a retry instead). It returns the IDs of the jobs handed back.
//
// It is safe against a worker that was only slow: a game's record share-locks its
// job's row and checks that the job runs in the worker's attempt (Hold), so this
// update waits for a record under way, and a record after it finds the job in
// another state or attempt and writes nothing.
func Rescue(ctx context.Context, q Queryer, clients []string, why string) ([]int64, error) {
	if len(clients) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, rescueQuery, Kind, clients, why)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// Queryer is a pool, a connection or a transaction.
type Queryer interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// rescueQuery is Rescue's update, River's rescue (JobRescueMany) in one statement. The
// states it chooses: cancelled when a cancel was asked (the metadata's
// cancel_attempted_at), discarded when the attempts are spent, otherwise available.
const rescueQuery = `WITH rescued AS (
		SELECT id,
			CASE WHEN metadata ? 'cancel_attempted_at' THEN 'cancelled'
				WHEN attempt >= max_attempts THEN 'discarded'
				ELSE 'available' END AS state
		FROM river_job
		WHERE kind = $1 AND state = 'running' AND attempted_by[array_length(attempted_by, 1)] = ANY ($2::text[])
		FOR UPDATE
	)
	UPDATE river_job j SET
		state = r.state::river_job_state,
		finalized_at = CASE WHEN r.state = 'available' THEN NULL ELSE now() END,
		scheduled_at = CASE WHEN r.state = 'available' THEN now() ELSE j.scheduled_at END,
		errors = array_append(j.errors, jsonb_build_object('at', now(), 'attempt', j.attempt, 'error', $3::text, 'trace', '')),
		metadata = j.metadata || jsonb_build_object('river:rescue_count',
			COALESCE(CASE WHEN jsonb_typeof(j.metadata -> 'river:rescue_count') = 'number'
				THEN (j.metadata ->> 'river:rescue_count')::int END, 0) + 1)
	FROM rescued r
	WHERE j.id = r.id
	RETURNING j.id`
