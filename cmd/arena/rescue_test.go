package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// A worker killed for good, and one frozen (SIGSTOP: a stalled machine), have their
// jobs handed back by the coordinator once their heartbeats have been silent for
// store.RescueAfter, though their lease (an hour a block) is far from over: a third
// worker plays them. The frozen worker then wakes up in the middle of its jobs,
// which it no longer holds: the ladder, once finished, has every block whole and no
// game recorded twice.
func TestSilentWorkersJobsComeBack(t *testing.T) {
	db := pgtest.URL(t)
	dir, err := os.MkdirTemp(bin, "rescue-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	addKillBots(t, dir, db)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, db)
	require.NoError(t, err)
	defer c.Close(ctx)

	co := startProc(t, dir, filepath.Join(dir, "cache-c"), "ladder", "serve", "--game", "ivanhoe", "--addr", "127.0.0.1:0",
		"--db", db, "--refresh", "1s", "--queue-depth", "3", "--blocks-per-job", "4")
	worker := func(i int) *proc {
		return startProc(t, dir, filepath.Join(dir, fmt.Sprintf("cache-%d", i)),
			"worker", "--db", db, "-j", "1", "--log-level", "debug", "--lease", "1h", "--job-timeout", "15s")
	}
	killed, frozen := worker(0), worker(1)

	// running are the jobs w runs now (its River client took them last), by ID, with
	// their attempts.
	running := func(w *proc) map[int64]int {
		rows, err := c.Query(ctx, `SELECT j.id, j.attempt FROM river_job j JOIN workers w ON w.queue_client = j.attempted_by[array_length(j.attempted_by, 1)]
			WHERE j.state = 'running' AND w.pid = $1`, w.cmd.Process.Pid)
		require.NoError(t, err)
		jobs := map[int64]int{}
		for rows.Next() {
			var id int64
			var attempt int
			require.NoError(t, rows.Scan(&id, &attempt))
			jobs[id] = attempt
		}
		require.NoError(t, rows.Err())
		return jobs
	}
	// silence signals w once it has played a game and runs a job, and returns the jobs
	// it ran then; a frozen worker whose job ended just before is woken and tried again.
	silence := func(w *proc, sig syscall.Signal) map[int64]int {
		var jobs map[int64]int
		require.True(t, poll.Within(3*time.Minute, func() bool {
			if n, _, _ := w.played(); n == 0 {
				return false
			}
			require.NoError(t, w.cmd.Process.Signal(sig))
			if jobs = running(w); len(jobs) > 0 {
				return true
			}
			if sig == syscall.SIGSTOP {
				require.NoError(t, w.cmd.Process.Signal(syscall.SIGCONT))
			}
			return false
		}), "a worker playing: %s", w.text())
		return jobs
	}
	frozenJobs := silence(frozen, syscall.SIGSTOP)
	begun := time.Now()
	killedJobs := silence(killed, syscall.SIGKILL)
	<-killed.done
	t.Logf("killed a worker in jobs %v, froze one in jobs %v", killedJobs, frozenJobs)
	rescuer := worker(2)

	// Handed on within RescueAfter, the coordinator's next look at the workers
	// (HeartbeatEvery) and room for load; their lease would take four hours.
	handedOn := func(jobs map[int64]int) bool {
		for id, attempt := range jobs {
			var now int
			var state string
			if c.QueryRow(ctx, `SELECT attempt, state::text FROM river_job WHERE id = $1`, id).Scan(&now, &state) != nil ||
				(now == attempt && state == "running") {
				return false
			}
		}
		return true
	}
	handed := poll.Within(store.RescueAfter+3*time.Minute, func() bool { return handedOn(killedJobs) && handedOn(frozenJobs) })
	require.NoError(t, frozen.cmd.Process.Signal(syscall.SIGCONT))
	require.True(t, handed, "the silent workers' jobs are handed on: %s", openJobs(t, c))
	t.Logf("their jobs were handed on after %v", time.Since(begun).Round(time.Second))
	// The killed worker's last heartbeat came at most a period before the kill (two
	// on a loaded machine).
	assert.GreaterOrEqual(t, time.Since(begun), store.RescueAfter-2*store.HeartbeatEvery, "not before the heartbeat has been silent for RescueAfter")
	assert.Contains(t, co.text(), "jobs of silent workers handed back to the queue")

	// The coordinator stops; the two workers alive play what is open.
	co.stop(t, "coordinating the ")
	var open int
	require.True(t, poll.Within(4*time.Minute, func() bool {
		return c.QueryRow(ctx, `SELECT COUNT(*) FROM blocks b WHERE b.rotations > (SELECT COUNT(*) FROM matches WHERE block_id = b.id)`).Scan(&open) == nil && open == 0
	}), "%d blocks still open: %s", open, openJobs(t, c))
	frozen.stop(t, "worker playing ")
	rescuer.stop(t, "worker playing ")
	waitNoLeftovers(t)
	t.Logf("the woken worker's fenced writes: %d", strings.Count(frozen.text(), "no longer this worker's"))
	checkQueueLadder(t, ctx, c, dir, db)
}
