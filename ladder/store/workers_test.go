package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store/pgtest"
)

func openPostgres(t *testing.T) (*Postgres, string) {
	t.Helper()
	db := pgtest.URL(t)
	p, err := OpenPostgres(ctx, db, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p, db
}

func TestWorkerRegistry(t *testing.T) {
	p, db := openPostgres(t)
	a, err := p.RegisterWorker(ctx, Worker{Host: "m1", PID: 41, Version: "v1", Engine: "protocol 1", Sandbox: []string{"seccomp", "landlock-fs"}, Slots: 16, QueueClient: "m1_river_1"})
	require.NoError(t, err)
	b, err := p.RegisterWorker(ctx, Worker{Host: "m2", PID: 42, Slots: 2})
	require.NoError(t, err)
	require.NotZero(t, a.ID)
	assert.NotEqual(t, a.ID, b.ID)
	assert.False(t, a.Started.IsZero())
	assert.Equal(t, a.Started, a.Heartbeat, "a new worker heartbeats when it registers")

	t.Run("workers are listed as registered, oldest first", func(t *testing.T) {
		ws, err := p.Workers(ctx)
		require.NoError(t, err)
		require.Len(t, ws, 2)
		assert.Equal(t, a, ws[0])
		assert.Equal(t, []string{}, ws[1].Sandbox)
		assert.Equal(t, "m2", ws[1].Host)
	})
	t.Run("a worker needs a host and a slot", func(t *testing.T) {
		_, err := p.RegisterWorker(ctx, Worker{Host: "m3"})
		require.ErrorContains(t, err, "at least one slot")
		_, err = p.RegisterWorker(ctx, Worker{Slots: 1})
		require.ErrorContains(t, err, "needs a host")
	})
	t.Run("a heartbeat moves to the database's now", func(t *testing.T) {
		postgresBackend.exec(t, db, `UPDATE workers SET heartbeat = heartbeat - interval '1 hour'`)
		require.NoError(t, p.Heartbeat(ctx, a.ID))
		ws, err := p.Workers(ctx)
		require.NoError(t, err)
		assert.False(t, ws[0].Heartbeat.Before(a.Heartbeat), "heartbeat %v is back to at least %v", ws[0].Heartbeat, a.Heartbeat)
		assert.True(t, ws[1].Heartbeat.Before(b.Heartbeat.Add(-59*time.Minute)), "the other worker's heartbeat stays")
	})
	t.Run("an unknown worker cannot heartbeat or stop", func(t *testing.T) {
		require.ErrorIs(t, p.Heartbeat(ctx, 999), ErrNotFound)
		require.ErrorIs(t, p.StopWorker(ctx, 999), ErrNotFound)
	})
	t.Run("a stopped worker stays stopped at its first stop", func(t *testing.T) {
		require.NoError(t, p.StopWorker(ctx, b.ID))
		ws, err := p.Workers(ctx)
		require.NoError(t, err)
		first := ws[1].Stopped
		require.False(t, first.IsZero())
		assert.True(t, ws[0].Stopped.IsZero(), "only that worker stopped")
		postgresBackend.exec(t, db, `UPDATE workers SET stopped = stopped - interval '1 hour' WHERE stopped IS NOT NULL`)
		require.NoError(t, p.StopWorker(ctx, b.ID), "stopping twice is a no-op")
		ws, err = p.Workers(ctx)
		require.NoError(t, err)
		assert.Equal(t, first.Add(-time.Hour), ws[1].Stopped)
		require.ErrorIs(t, p.Heartbeat(ctx, b.ID), ErrNotFound, "a stopped worker does not come back by heartbeating")
	})
	t.Run("a new worker supersedes the silent workers of its host", func(t *testing.T) {
		c, err := p.RegisterWorker(ctx, Worker{Host: "m1", PID: 43, Slots: 1})
		require.NoError(t, err)
		postgresBackend.exec(t, db, fmt.Sprintf(`UPDATE workers SET heartbeat = heartbeat - interval '1 minute' WHERE id = %d`, c.ID))
		ws, err := p.Workers(ctx)
		require.NoError(t, err)
		silentSince := ws[len(ws)-1].Heartbeat
		d, err := p.RegisterWorker(ctx, Worker{Host: "m1", PID: 44, Slots: 1})
		require.NoError(t, err)
		ws, err = p.Workers(ctx)
		require.NoError(t, err)
		byID := map[int64]Worker{}
		for _, w := range ws {
			byID[w.ID] = w
		}
		assert.Equal(t, silentSince, byID[c.ID].Stopped, "the silent one stopped at its last heartbeat")
		assert.True(t, byID[a.ID].Stopped.IsZero(), "a heartbeating worker of the host runs on")
		assert.True(t, byID[d.ID].Stopped.IsZero())
	})
	t.Run("silent clients are those of workers silent long enough, stopped or not", func(t *testing.T) {
		fresh, err := p.RegisterWorker(ctx, Worker{Host: "m5", PID: 50, Slots: 1, QueueClient: "m5_river"})
		require.NoError(t, err)
		gone, err := p.RegisterWorker(ctx, Worker{Host: "m6", PID: 60, Slots: 1, QueueClient: "m6_river"})
		require.NoError(t, err)
		stopped, err := p.RegisterWorker(ctx, Worker{Host: "m7", PID: 70, Slots: 1, QueueClient: "m7_river"})
		require.NoError(t, err)
		require.NoError(t, p.StopWorker(ctx, stopped.ID))
		long, err := p.RegisterWorker(ctx, Worker{Host: "m8", PID: 80, Slots: 1, QueueClient: "m8_river"})
		require.NoError(t, err)
		postgresBackend.exec(t, db, fmt.Sprintf(`UPDATE workers SET heartbeat = now() - interval '2 minutes' WHERE id IN (%d, %d)`, gone.ID, stopped.ID))
		postgresBackend.exec(t, db, fmt.Sprintf(`UPDATE workers SET heartbeat = now() - interval '25 hours' WHERE id = %d`, long.ID))
		ws, err := p.Workers(ctx)
		require.NoError(t, err)
		assert.Equal(t, "m5_river", ws[len(ws)-4].QueueClient, "the client is kept")
		silent, err := p.SilentClients(ctx, time.Minute)
		require.NoError(t, err)
		// a (m1_river_1) heartbeat above; c and d have no client; fresh heartbeats;
		// long is past the horizon.
		assert.Equal(t, []string{"m6_river", "m7_river"}, silent)
		assert.NotContains(t, silent, fresh.QueueClient)
	})
	t.Run("a game keeps the worker that played it", func(t *testing.T) {
		bots := addBots(t, p, "x", "y")
		blk, err := p.NewBlock(ctx, Block{Game: "ivanhoe", Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		m := game(blk, 0)
		m.Worker = a.ID
		_, err = p.RecordMatch(ctx, m)
		require.NoError(t, err)
		m = game(blk, 1)
		m.Worker = 999
		_, err = p.RecordMatch(ctx, m)
		require.ErrorIs(t, err, ErrNotFound, "a game of an unregistered worker is refused")
		ms := allMatches(t, p, "")
		require.Len(t, ms, 1, "and not written")
		assert.Equal(t, a.ID, ms[0].Worker)
	})
}

// TestMatchWorkerOnEveryStore: a game of no worker reads back as 0 everywhere, and
// the SQLite store, which has no workers, ignores the field.
func TestMatchWorkerOnEveryStore(t *testing.T) {
	forEachStore(t, func(t *testing.T, be backend) {
		s, _ := be.openFresh(t)
		bots := addBots(t, s, "x", "y")
		blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		_, err = s.RecordMatch(ctx, game(blk, 0))
		require.NoError(t, err)
		if _, ok := s.(WorkerRegistry); !ok {
			m := game(blk, 1)
			m.Worker = 7
			_, err = s.RecordMatch(ctx, m)
			require.NoError(t, err)
		}
		for _, m := range allMatches(t, s, "") {
			assert.Zero(t, m.Worker)
		}
	})
}

// TestWorkersMigrationKeepsGames: a database of the schema before workers keeps its
// games, which read back as played by no worker.
func TestWorkersMigrationKeepsGames(t *testing.T) {
	db := pgtest.URL(t)
	old, err := openPostgresAt(ctx, db, t.TempDir(), 5, 0)
	require.NoError(t, err)
	bots := addBots(t, old, "x", "y")
	blk, err := old.NewBlock(ctx, Block{Game: "ivanhoe", Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 1})
	require.NoError(t, err)
	old.Close()
	// A game as the arena before workers wrote it.
	postgresBackend.exec(t, db, fmt.Sprintf(`INSERT INTO matches (id, block_id, rotation, game, seed, adjudicated, replay)
		VALUES (1, %d, 0, 'ivanhoe', 0, false, '');
		INSERT INTO match_seats VALUES (1, 0, %d, 0, 0, 'ok'), (1, 1, %d, 1, 0, 'ok')`, blk.ID, bots[0].ID, bots[1].ID))

	p, err := OpenPostgres(ctx, db, t.TempDir())
	require.NoError(t, err)
	defer p.Close()
	ms := allMatches(t, p, "")
	require.Len(t, ms, 1)
	assert.Zero(t, ms[0].Worker)
}

// TestKeepAlive: a kept-alive worker heartbeats on its own and is marked stopped when
// its context ends, before done closes; a failed heartbeat is reported, not fatal; a
// worker superseded while it was silent registers again.
func TestKeepAlive(t *testing.T) {
	p, db := openPostgres(t)
	defer func(d time.Duration) { keepAliveEvery = d }(keepAliveEvery)
	keepAliveEvery = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var errs atomic.Int32
	w, done, err := KeepAlive(ctx, p, Worker{Host: "m1", Slots: 1, QueueClient: "m1_river"}, func(error) { errs.Add(1) })
	require.NoError(t, err)
	postgresBackend.exec(t, db, `UPDATE workers SET heartbeat = heartbeat - interval '1 hour'`)
	// Heartbeats come every 20 ms: a minute allows for any load.
	require.Eventually(t, func() bool {
		ws, err := p.Workers(ctx)
		return err == nil && !ws[0].Heartbeat.Before(w.Heartbeat)
	}, time.Minute, 10*time.Millisecond, "the heartbeat comes back to now")
	postgresBackend.exec(t, db, `UPDATE workers SET stopped = now(), heartbeat = now() - interval '1 hour'`) // as if superseded
	require.Eventually(t, func() bool { return errs.Load() > 0 }, time.Minute, 10*time.Millisecond, "a failed heartbeat is reported")
	// It registers again, with its queue client, which is then not silent.
	ws, err := p.Workers(ctx)
	require.NoError(t, err)
	require.Len(t, ws, 2)
	assert.Equal(t, "m1_river", ws[1].QueueClient)
	silent, err := p.SilentClients(ctx, time.Minute)
	require.NoError(t, err)
	assert.Empty(t, silent, "the client heartbeats under its new entry")
	cancel()
	<-done
	ws, err = p.Workers(context.Background())
	require.NoError(t, err)
	assert.False(t, ws[1].Stopped.IsZero(), "stopped when its context ended")
	assert.Equal(t, w.ID, ws[0].ID, "KeepAlive gives the first entry")
}
