package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store/pgtest"
)

// blockJob and otherJob stand for the ladder's block jobs and anything else the same
// queue tables might hold.
type blockJob struct {
	Block int64 `json:"block"`
}

func (blockJob) Kind() string { return BlockJobKind }

type otherJob struct{}

func (otherJob) Kind() string { return "other" }

// TestFleetBeforeTheQueueExists: a ladder whose queue was never set up reports an
// empty queue and no workers, not an error.
func TestFleetBeforeTheQueueExists(t *testing.T) {
	p, _ := openPostgres(t)
	f, err := p.Fleet(ctx, time.Minute)
	require.NoError(t, err)
	assert.Zero(t, f.Queued)
	assert.Zero(t, f.OldestQueued)
	assert.Zero(t, f.Alive)
	assert.Empty(t, f.Workers)
}

// TestFleetCountsQueuedBlocks: only block jobs that wait (available, scheduled for
// later, or to be retried) count, and the oldest one's age is the database's; blocks
// given up after their last attempt are counted apart.
func TestFleetCountsQueuedBlocks(t *testing.T) {
	p, db := openPostgres(t)
	q := pgtest.Queue(t, db)
	ids := make([]int64, 5)
	for i := range ids {
		r, err := q.Insert(ctx, blockJob{Block: int64(i)}, &river.InsertOpts{Queue: "blocks"})
		require.NoError(t, err)
		ids[i] = r.Job.ID
	}
	_, err := q.Insert(ctx, blockJob{Block: 9}, &river.InsertOpts{Queue: "blocks", ScheduledAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	_, err = q.Insert(ctx, otherJob{}, nil)
	require.NoError(t, err)
	postgresBackend.exec(t, db, fmt.Sprintf(`
		UPDATE river_job SET state = 'completed', finalized_at = now(), created_at = now() - interval '1 hour' WHERE id = %d;
		UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now(), created_at = now() - interval '1 hour' WHERE id = %d;
		UPDATE river_job SET state = 'retryable', attempt = 1, created_at = now() - interval '90 seconds' WHERE id = %d;
		UPDATE river_job SET state = 'discarded', attempt = 100, finalized_at = now(), created_at = now() - interval '1 hour' WHERE id = %d;
		UPDATE river_job SET created_at = now() - interval '1 day' WHERE kind = 'other'`, ids[0], ids[1], ids[2], ids[4]))

	f, err := p.Fleet(ctx, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 3, f.Queued, "1 available, 1 retryable, 1 scheduled; not the completed, running, discarded or other jobs")
	assert.Equal(t, 1, f.GivenUp, "the discarded block")
	assert.Equal(t, 1, f.Retrying, "the block that failed an attempt and waits for the next")
	// The age is read some time after it was set to 90 s: a minute of margin holds
	// on a machine loaded far beyond CI's.
	assert.GreaterOrEqual(t, f.OldestQueued, 90*time.Second)
	assert.Less(t, f.OldestQueued, 150*time.Second)
}

// TestFleetWorkers: a worker counts as alive while it heartbeats, shows as gone for
// a day after it went silent, and its games per window are those it recorded within
// the window by the database's clock.
func TestFleetWorkers(t *testing.T) {
	p, db := openPostgres(t)
	reg := func(host string) Worker {
		w, err := p.RegisterWorker(ctx, Worker{Host: host, PID: 1, Slots: 4})
		require.NoError(t, err)
		return w
	}
	alive, silent, stopped, longGone, stoppedEarlier := reg("alive"), reg("silent"), reg("stopped"), reg("long-gone"), reg("stopped-earlier")
	require.NoError(t, p.StopWorker(ctx, stopped.ID))
	require.NoError(t, p.StopWorker(ctx, stoppedEarlier.ID))
	bots := addBots(t, p, "x", "y")
	blk, err := p.NewBlock(ctx, Block{Game: "ivanhoe", Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 6})
	require.NoError(t, err)
	for rot, w := range []int64{alive.ID, alive.ID, alive.ID, silent.ID, stopped.ID, 0} {
		m := game(blk, rot)
		m.Worker = w
		_, err := p.RecordMatch(ctx, m)
		require.NoError(t, err)
	}
	postgresBackend.exec(t, db, fmt.Sprintf(`
		UPDATE matches SET recorded = now() - interval '2 minutes' WHERE rotation = 2;
		UPDATE workers SET heartbeat = now() - interval '45 seconds' WHERE id = %d;
		UPDATE workers SET heartbeat = now() - interval '2 days' WHERE id = %d;
		UPDATE workers SET stopped = now() - interval '2 minutes' WHERE id = %d`, silent.ID, longGone.ID, stoppedEarlier.ID))

	f, err := p.Fleet(ctx, time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 1, f.Alive)
	require.Len(t, f.Workers, 3, "a worker silent for days, or stopped before the window, is not listed: %+v", f.Workers)
	type row struct {
		host  string
		alive bool
		games int
	}
	var got []row
	for _, w := range f.Workers {
		got = append(got, row{w.Host, w.Alive, w.Games})
	}
	assert.Equal(t, []row{{"alive", true, 2}, {"silent", false, 1}, {"stopped", false, 1}}, got,
		"the game recorded two minutes ago is outside the window")
	assert.GreaterOrEqual(t, f.Workers[1].HeartbeatAge, 45*time.Second)
	assert.Less(t, f.Workers[0].HeartbeatAge, AliveWindow)
}
