package ladderprom

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

type blockJob struct{}

func (blockJob) Kind() string { return store.BlockJobKind }

// TestFleetSeriesFromTheDatabase: over a shared ladder the coordinator exports the
// queue and the workers as the database knows them, with no worker process of its own.
func TestFleetSeriesFromTheDatabase(t *testing.T) {
	ctx := context.Background()
	db := pgtest.URL(t)
	st, err := store.OpenPostgres(ctx, db, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	busy, err := st.RegisterWorker(ctx, store.Worker{Host: "m1", PID: 10, Slots: 16})
	require.NoError(t, err)
	silent, err := st.RegisterWorker(ctx, store.Worker{Host: "m2", PID: 20, Slots: 2})
	require.NoError(t, err)
	a, err := st.AddBot(ctx, store.Bot{Name: "random", Builtin: "random", SHA256: "r"})
	require.NoError(t, err)
	blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Bots: []int64{a.ID, a.ID}, Rotations: 3})
	require.NoError(t, err)
	for rot := range 3 {
		_, err := st.RecordMatch(ctx, store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe", Worker: busy.ID,
			Seats: []store.Seat{{Bot: a.ID, Ending: "ok"}, {Bot: a.ID, Place: 1, Ending: "ok"}}})
		require.NoError(t, err)
	}
	q := pgtest.Queue(t, db)
	for range 2 {
		_, err := q.Insert(ctx, blockJob{}, &river.InsertOpts{Queue: "blocks"})
		require.NoError(t, err)
	}
	conn, err := pgx.Connect(ctx, db)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, fmt.Sprintf(`UPDATE workers SET heartbeat = now() - interval '5 minutes' WHERE id = %d;
		UPDATE river_job SET created_at = now() - interval '10 minutes'`, silent.ID))
	require.NoError(t, err)
	conn.Close(ctx)

	e, _ := New(st, "ivanhoe", "club")
	require.NoError(t, e.Refresh(ctx))
	want := fmt.Sprintf(`
# HELP arena_ladder_queue_depth Blocks waiting in the shared ladder's work queue (enqueued, not yet taken by a worker, or waiting to be retried), read from the database.
# TYPE arena_ladder_queue_depth gauge
arena_ladder_queue_depth{ladder="club"} 2
# HELP arena_ladder_workers_alive Workers that have not stopped and heartbeat within the last 30 s (three heartbeats), read from the database.
# TYPE arena_ladder_workers_alive gauge
arena_ladder_workers_alive{ladder="club"} 1
# HELP arena_ladder_worker_alive 1 for a worker heartbeating (within 30 s), 0 for one gone silent without stopping; a worker gone longer than a day, or stopped over a minute ago, is not listed.
# TYPE arena_ladder_worker_alive gauge
arena_ladder_worker_alive{host="m1",ladder="club",worker="%[1]d"} 1
arena_ladder_worker_alive{host="m2",ladder="club",worker="%[2]d"} 0
# HELP arena_ladder_worker_games_per_second Games a worker recorded in the last minute, per second, read from the database.
# TYPE arena_ladder_worker_games_per_second gauge
arena_ladder_worker_games_per_second{host="m1",ladder="club",worker="%[1]d"} 0.05
arena_ladder_worker_games_per_second{host="m2",ladder="club",worker="%[2]d"} 0
# HELP arena_ladder_worker_slots Games a worker plays at once, as it registered.
# TYPE arena_ladder_worker_slots gauge
arena_ladder_worker_slots{host="m1",ladder="club",worker="%[1]d"} 16
arena_ladder_worker_slots{host="m2",ladder="club",worker="%[2]d"} 2
`, busy.ID, silent.ID)
	require.NoError(t, testutil.GatherAndCompare(e.Gatherer(), strings.NewReader(want),
		"arena_ladder_queue_depth", "arena_ladder_workers_alive", "arena_ladder_worker_alive", "arena_ladder_worker_games_per_second", "arena_ladder_worker_slots"))

	got := gathered(t, e)
	// Read some time after they were set: a minute of margin holds far beyond CI's load.
	assert.InDelta(t, 630, got[`arena_ladder_queue_oldest_age_seconds{ladder="club"}`], 30)
	assert.InDelta(t, 330, got[fmt.Sprintf(`arena_ladder_worker_heartbeat_age_seconds{host="m2",ladder="club",worker="%d"}`, silent.ID)], 30)
}

// TestNoFleetSeriesWithoutWorkers: a store of one machine has no queue and no
// workers, and says nothing of them.
func TestNoFleetSeriesWithoutWorkers(t *testing.T) {
	e, _ := New(ladderWith(t, 2), "ivanhoe", "club")
	require.NoError(t, e.Refresh(context.Background()))
	got := gathered(t, e)
	require.NotEmpty(t, got)
	for k := range got {
		assert.False(t, strings.Contains(k, "queue") || strings.Contains(k, "worker"), k)
	}
}

// gathered is every sample of e by its name and labels, as in the text format.
func gathered(t *testing.T, e *Exporter) map[string]float64 {
	t.Helper()
	families, err := e.Gatherer().Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			key := f.GetName()
			if len(labels) > 0 {
				key += "{" + strings.Join(labels, ",") + "}"
			}
			if m.GetGauge() != nil {
				out[key] = m.GetGauge().GetValue()
			} else {
				out[key] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}
