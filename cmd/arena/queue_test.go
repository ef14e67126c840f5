package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// The workers' side of TestServeOnPostgres: a worker plays the coordinator's blocks,
// and stops cleanly on SIGTERM with nothing left running.
func startWorker(t *testing.T, dir, db string, extra ...string) *proc {
	t.Helper()
	return startProc(t, dir, filepath.Join(dir, "cache"), append([]string{"worker", "--db", db}, extra...)...)
}

// ownPostgres starts a PostgreSQL server of the test's own (it is restarted, which
// others' tests must not see), with .ci/postgres.sh; it returns the URL and the
// server's directory.
func ownPostgres(t *testing.T) (url, dir string) {
	t.Helper()
	pgtest.Skip(t) // a server is installed where ARENA_TEST_POSTGRES names one
	dir, err := os.MkdirTemp("", "arena-pg-")
	require.NoError(t, err)
	script, err := filepath.Abs("../../.ci/postgres.sh")
	require.NoError(t, err)
	out, err := exec.Command(script, "start", dir).Output()
	require.NoError(t, err, "starting a server: %s", out)
	t.Cleanup(func() { _ = exec.Command(script, "stop", dir).Run() })
	return strings.TrimSpace(string(out)), dir
}

// The many-machines ladder's promise, with real processes against a real PostgreSQL:
// one coordinator and three workers, each on a "machine" of its own, are killed with
// SIGKILL at random moments (most workers in the middle of a game), the server is
// restarted under them, and a worker is frozen past its lease and woken after its
// block went to another. Jobs carry two blocks each, and some kills land between two
// blocks of a job (the first recorded, the next not): its next attempt plays only the
// rest. Then the coordinator stops, the workers finish the queue, and
// the ladder is checked: no game recorded twice, none lost (every block has all its
// rotations), every replay in the database re-simulates, no bot left running, and the
// standings (a refit from scratch) count exactly the recorded games.
func TestQueueSurvivesKills(t *testing.T) {
	db, pgdir := ownPostgres(t)
	script, err := filepath.Abs("../../.ci/postgres.sh")
	require.NoError(t, err)
	dir, err := os.MkdirTemp(bin, "queue-kills-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	addKillBots(t, dir, db)
	ctx := context.Background()
	conn := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, db)
		require.NoError(t, err)
		return c
	}

	// A short lease, so that the jobs of killed workers come back within the test:
	// River's rescuer looks every 30 s, so a killed worker's job of two blocks waits
	// at most two leases + 30 s + its retry delay. A block of three 3-player games
	// lasts well under a second when idle; its 15 s leave room for load.
	lease := []string{"--lease", "20s", "--job-timeout", "15s"}
	coordinator := func() *proc {
		return startProc(t, dir, filepath.Join(dir, "cache-c"), "ladder", "serve", "--game", "ivanhoe", "--addr", "127.0.0.1:0",
			"--db", db, "--refresh", "1s", "--queue-depth", "3", "--blocks-per-job", "2")
	}
	worker := func(i int) *proc {
		// Live replays: a game in flight is then a file, which the kills aim at.
		return startProc(t, dir, filepath.Join(dir, fmt.Sprintf("cache-%d", i)), append([]string{"worker", "--db", db, "-j", "1", "--log-level", "debug", "--live-replays"}, lease...)...)
	}
	co := coordinator()
	workers := []*proc{worker(0), worker(1), worker(2)}
	// midGame reports whether worker i has a game in flight: a replay being written.
	midGame := func(i int) bool {
		temps, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("cache-%d", i), "arena", "pg-*", "replays", "worker-*", "ivanhoe", "block-*", "*"+arena.TempReplaySuffix))
		return len(temps) > 0
	}

	rng := killSchedule(t, 2)
	const kills = 24
	begun := time.Now()
	inGame, coordinatorKills, workerKills, betweenBlocks := 0, 0, 0, 0
	var frozen *proc
	for k := range kills {
		if k == kills/2 {
			require.NoError(t, exec.Command(script, "restart", pgdir).Run(), "restarting the server")
			t.Logf("server restarted after %d kills", k)
		}
		if k == kills/3 {
			frozen = workers[0]
			freezePastLease(t, conn, frozen)
		}
		// A coordinator that found its lock gone with the server, or a worker that
		// gave up, is started again, as systemd would.
		if co.exited() {
			t.Logf("coordinator exited: %s", lastLine(co.text()))
			co = coordinator()
		}
		for i, w := range workers {
			if w.exited() {
				t.Logf("worker %d exited: %s", i, lastLine(w.text()))
				workers[i] = worker(i)
			}
		}
		if rng.IntN(4) == 0 {
			// The coordinator: at a random moment of its work.
			time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
			co.kill()
			coordinatorKills++
			co = coordinator()
			continue
		}
		// A worker, once it plays (most kills then land mid-game: a game lasts
		// 100-300 ms with the sleepy bot), after a random moment more.
		i := rng.IntN(len(workers))
		w := workers[i]
		workerKills++
		if workerKills%3 == 1 && killBetweenBlocks(t, conn, w) {
			betweenBlocks++
			workers[i] = worker(i)
			continue
		}
		poll.Within(2*time.Minute, func() bool { return midGame(i) || w.exited() })
		time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		w.kill()
		if midGame(i) {
			inGame++
		}
		workers[i] = worker(i)
	}
	t.Logf("%d kills (%d of the coordinator, %d of workers mid-game, %d between two blocks of a job) in %v",
		kills, coordinatorKills, inGame, betweenBlocks, time.Since(begun).Round(time.Millisecond))
	require.GreaterOrEqual(t, inGame, 3, "kills hit games in flight")
	require.GreaterOrEqual(t, betweenBlocks, 2, "kills hit jobs between two blocks")

	// The bounded run: no new blocks; the workers play what is open. A block whose
	// worker was killed comes back after two leases + 30 s + its retries: 4 minutes
	// is room for two such rounds and more on a loaded machine.
	if !co.exited() {
		co.stop(t, "coordinating the ")
	}
	c := conn()
	defer c.Close(ctx)
	var open int
	finished := poll.Within(4*time.Minute, func() bool {
		for i, w := range workers {
			if w.exited() {
				workers[i] = worker(i)
			}
		}
		return c.QueryRow(ctx, `SELECT COUNT(*) FROM blocks b WHERE b.rotations > (SELECT COUNT(*) FROM matches WHERE block_id = b.id)`).Scan(&open) == nil && open == 0
	})
	if !finished {
		t.Fatalf("%d blocks still open: %s; workers' last lines: %q, %q, %q", open, openJobs(t, c),
			lastLine(workers[0].text()), lastLine(workers[1].text()), lastLine(workers[2].text()))
	}
	for _, w := range workers {
		w.stop(t, "worker playing ")
	}
	waitNoLeftovers(t)
	// Whether the woken worker got as far as a write (it may instead find its job's
	// time up first): the fence itself is TestFencedRecording's.
	t.Logf("the woken worker's fenced writes: %d", strings.Count(frozen.text(), "no longer this worker's"))
	checkQueueLadder(t, ctx, c, dir, db)
}

// openJobs describes the open blocks and the states of their jobs.
func openJobs(t *testing.T, c *pgx.Conn) string {
	rows, err := c.Query(context.Background(), `SELECT b.id || ': ' || COALESCE(string_agg(j.state::text || ' attempt ' || j.attempt || ' ' ||
			COALESCE(j.errors[array_length(j.errors, 1)]->>'error', ''), '; '), 'no job')
		FROM blocks b LEFT JOIN river_job j ON (j.args->>'block')::bigint = b.id OR j.args->'more' @> to_jsonb(b.id)
		WHERE b.rotations > (SELECT COUNT(*) FROM matches WHERE block_id = b.id) GROUP BY b.id ORDER BY b.id`)
	require.NoError(t, err)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return strings.Join(lines, " | ")
}

// jobWith is the condition on river_job that the job carries block $1.
const jobWith = `kind = 'arena_block' AND ((args->>'block')::bigint = $1 OR args->'more' @> to_jsonb($1::bigint))`

// killBetweenBlocks kills worker w right after it recorded the last game of a block
// that is not its job's last, and reports whether the kill landed between two blocks
// of a job: the one before recorded whole, the next one not. It gives up (false,
// w alive) when no such moment comes within a minute.
func killBetweenBlocks(t *testing.T, conn func() *pgx.Conn, w *proc) bool {
	t.Helper()
	ctx := context.Background()
	c := conn()
	defer c.Close(ctx)
	whole := func(block int64) bool {
		var whole bool
		return c.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM matches WHERE block_id = $1) = rotations FROM blocks WHERE id = $1`, block).Scan(&whole) == nil && whole
	}
	var block, next int64
	if !poll.Within(time.Minute, func() bool {
		_, b, _ := w.played()
		block = int64(b)
		if w.exited() || b == 0 || !whole(block) {
			return false
		}
		return c.QueryRow(ctx, `SELECT (array_prepend((args->>'block')::bigint,
				ARRAY(SELECT jsonb_array_elements_text(COALESCE(args->'more', '[]'::jsonb))::bigint)))[
				array_position(array_prepend((args->>'block')::bigint,
				ARRAY(SELECT jsonb_array_elements_text(COALESCE(args->'more', '[]'::jsonb))::bigint)), $1::bigint) + 1]
			FROM river_job WHERE state = 'running' AND `+jobWith, block).Scan(&next) == nil && next != 0
	}) {
		return false
	}
	w.kill()
	return whole(block) && !whole(next)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// freezePastLease stops a worker (SIGSTOP) in the middle of a block, keeps it stopped
// until the block's job has gone to another attempt, and wakes it (SIGCONT): whatever
// it then tries to record is fenced.
func freezePastLease(t *testing.T, conn func() *pgx.Conn, w *proc) {
	t.Helper()
	ctx := context.Background()
	c := conn()
	defer c.Close(ctx)
	var job int64
	var attempt int
	// Frozen right after it recorded a game of a block it has more games of, the
	// worker is in that block's job (it plays one at a time). Should the block have
	// been finished in between (a loaded machine), it is woken and tried again.
	require.True(t, poll.Within(3*time.Minute, func() bool {
		seen, _, _ := w.played()
		if !poll.Within(time.Minute, func() bool { n, _, r := w.played(); return n > seen && r < 2 }) {
			return false
		}
		require.NoError(t, w.cmd.Process.Signal(syscall.SIGSTOP))
		_, block, _ := w.played()
		if c.QueryRow(ctx, `SELECT id, attempt FROM river_job WHERE state = 'running' AND `+jobWith,
			block).Scan(&job, &attempt) == nil {
			return true
		}
		require.NoError(t, w.cmd.Process.Signal(syscall.SIGCONT))
		return false
	}), "a worker frozen in a block: %s", w.text())
	t.Logf("froze a worker in job %d attempt %d", job, attempt)
	// The lease (20 s a block, two blocks), River's rescue round (30 s) and the retry
	// delay: three minutes is room for them on a loaded machine.
	var now int
	var state string
	handed := poll.Within(3*time.Minute, func() bool {
		return c.QueryRow(ctx, `SELECT attempt, state::text FROM river_job WHERE id = $1`, job).Scan(&now, &state) == nil &&
			(now > attempt || state == "completed")
	})
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGCONT))
	require.True(t, handed, "job %d was handed on (attempt %d, %s)", job, now, state)
	t.Logf("woke it; job %d is in attempt %d, %s", job, now, state)
}

// checkQueueLadder checks the ladder after the faults: no game twice, every block
// whole, every stored replay re-simulating, standings counting every game.
func checkQueueLadder(t *testing.T, ctx context.Context, c *pgx.Conn, dir, db string) {
	t.Helper()
	var twice, games int
	require.NoError(t, c.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT block_id, rotation FROM matches GROUP BY 1, 2 HAVING COUNT(*) > 1) d`).Scan(&twice))
	assert.Zero(t, twice, "no game recorded twice")
	var incomplete int
	require.NoError(t, c.QueryRow(ctx, `SELECT COUNT(*) FROM blocks b WHERE
		ARRAY(SELECT rotation FROM matches WHERE block_id = b.id ORDER BY rotation) <> ARRAY(SELECT generate_series(0, b.rotations - 1))`).Scan(&incomplete))
	assert.Zero(t, incomplete, "every block has exactly its rotations")
	rows, err := c.Query(ctx, `SELECT m.id FROM matches m LEFT JOIN replays r ON r.match_id = m.id WHERE r.match_id IS NOT NULL ORDER BY m.id`)
	require.NoError(t, err)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	require.NoError(t, err)
	require.NoError(t, c.QueryRow(ctx, `SELECT COUNT(*) FROM matches`).Scan(&games))
	assert.Equal(t, games, len(ids), "every game has its replay in the database")
	t.Logf("%d games in %d blocks", games, games/3)
	// Every replay is read from the database and re-simulated as `arena replay
	// --game-id` does it; a dozen of them through that command itself (a process per
	// game: thousands took minutes under load).
	st, err := store.OpenPostgres(ctx, db, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	for i, id := range ids {
		data, err := st.Replay(ctx, id)
		require.NoError(t, err, "game %d", id)
		rep, err := arena.ReadReplay(bytes.NewReader(data))
		require.NoError(t, err, "game %d", id)
		_, err = arena.Resimulate(rep, nil)
		require.NoError(t, err, "game %d", id)
		if i%max(1, len(ids)/12) == 0 {
			r := machine(t, filepath.Join(dir, "cache-v"), "replay", "--game-id", itoa(int(id)), "-q", "--db", db)
			require.Equal(t, 0, r.code, "game %d: %s", id, r.stderr)
		}
	}
	seats := map[string]int{}
	rows, err = c.Query(ctx, `SELECT b.name, COUNT(*) FROM match_seats s JOIN bots b ON b.id = s.bot_id GROUP BY 1`)
	require.NoError(t, err)
	for rows.Next() {
		var name string
		var n int
		require.NoError(t, rows.Scan(&name, &n))
		seats[name] = n
	}
	require.NoError(t, rows.Err())
	r := runArena(t, dir, "ladder", "standings", "--game", "ivanhoe", "--json", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	var tables []tableJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tables), r.stdout)
	require.Len(t, tables, 1)
	assert.Equal(t, games, tables[0].Games, "standings count every recorded game")
	for _, s := range tables[0].Standings {
		assert.Equal(t, seats[s.Bot], s.Games, "games of %s", s.Bot)
	}
}
