package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/queue"
	"github.com/arena-games/arena/ladder/queue/jobtable"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// stoppingWorker is a ladder of the built-in random bot against a sleepy bot (sleep
// per decision), its coordinator, and one worker (-j 1, the given stop flags) caught
// in the first game of a block (two games). It returns the worker, the ladder's
// database and the block being played.
func stoppingWorker(t *testing.T, sleep time.Duration, flags ...string) (*proc, *pgxpool.Pool, int64) {
	t.Helper()
	db := pgtest.URL(t)
	dir, err := os.MkdirTemp(bin, "worker-stop-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sleepy := buildSleepyBot(t, sleep)
	for _, add := range [][]string{{"random"}, {sleepy, "--name", "sleepy"}} {
		r := runArena(t, dir, append(append([]string{"bot", "add"}, add...), "--db", db)...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	co := startProc(t, dir, filepath.Join(dir, "cache-c"), "ladder", "serve", "--game", "ivanhoe", "--addr", "127.0.0.1:0", "--db", db, "--queue-depth", "1")
	t.Cleanup(func() { co.stop(t, "coordinating the ") })
	pool, err := pgxpool.New(context.Background(), db)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	// At debug the worker logs each game it records (info has a progress line a minute).
	// Live replays: the block's first game is then a file, which the test waits for.
	w := startWorker(t, dir, db, append([]string{"-j", "1", "--log-level", "debug", "--live-replays"}, flags...)...)

	// In the block's first game: a replay being written in the block's folder, and
	// none of its games recorded yet, so that the rest of the block is still to play.
	var block int64
	require.True(t, poll.Within(2*time.Minute, func() bool {
		temps, _ := filepath.Glob(filepath.Join(dir, "cache", "arena", "pg-*", "replays", "worker-*", "ivanhoe", "block-*", "*"+arena.TempReplaySuffix))
		if len(temps) == 0 {
			return false
		}
		block, err = strconv.ParseInt(strings.TrimPrefix(filepath.Base(filepath.Dir(temps[0])), "block-"), 10, 64)
		if err != nil {
			return false
		}
		games, _ := blockGames(t, pool, block)
		return games == 0
	}), "the worker plays a block's first game: %s", w.text())
	return w, pool, block
}

// games counts the games recorded of a block, and its rotations.
func blockGames(t *testing.T, pool *pgxpool.Pool, block int64) (games, rotations int) {
	t.Helper()
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT (SELECT COUNT(*) FROM matches WHERE block_id = $1), rotations FROM blocks WHERE id = $1`,
		block).Scan(&games, &rotations))
	return games, rotations
}

// waitingBlocks are the blocks whose job waits in the queue, read through River.
func waitingBlocks(t *testing.T, pool *pgxpool.Pool) []int64 {
	t.Helper()
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	require.NoError(t, err)
	res, err := client.JobList(context.Background(), river.NewJobListParams().Kinds(jobtable.Kind).States(jobtable.Waiting...).First(1000))
	require.NoError(t, err)
	var blocks []int64
	for _, j := range res.Jobs {
		var a queue.BlockArgs
		require.NoError(t, json.Unmarshal(j.EncodedArgs, &a))
		blocks = append(blocks, a.Blocks()...)
	}
	return blocks
}

// waitExit waits for p to end, within limit, and returns its exit code.
func waitExit(t *testing.T, p *proc, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("%v still runs %v after the signal: %s", p.cmd.Args[1:3], limit, p.text())
	}
	_ = p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

// A SIGTERM in the middle of a block, the first of a job of several: the worker takes
// no more blocks, plays the block to its end (the game in flight and the rotations
// after it are all recorded: nothing is lost), hands the rest of the job back to the
// queue at once without counting an attempt, exits 0, and leaves no block half played.
func TestAWorkerStopsSoftly(t *testing.T) {
	// 40 ms a decision: a game lasts a second or more, so the signal lands in the
	// block's first game and the stop must play that and the second.
	w, pool, block := stoppingWorker(t, 40*time.Millisecond, "--stop-timeout", "10m")
	ctx := context.Background()
	var job int64
	var rest []int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT id, ARRAY(SELECT jsonb_array_elements_text(args->'more')::bigint)
		FROM river_job WHERE state = 'running' AND `+jobWith, block).Scan(&job, &rest))
	require.NotEmpty(t, rest, "the block is the first of a job of several (--blocks-per-job's default)")
	signalled := time.Now()
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGTERM))
	// The block's games at 40 ms a decision take seconds alone; three minutes is
	// room for a load of 16.
	require.Equal(t, 0, waitExit(t, w, 3*time.Minute), w.text())
	t.Logf("exited %v after the signal", time.Since(signalled).Round(time.Millisecond))
	out := w.text()
	assert.Contains(t, out, "it finished the blocks it was playing")
	assert.NotContains(t, out, "block attempt failed", "the hand-back is no failure")
	games, rotations := blockGames(t, pool, block)
	assert.Equal(t, rotations, games, "the block under way was played to its end: %s", out)
	var half int
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT COUNT(*) FROM blocks b
		WHERE (SELECT COUNT(*) FROM matches WHERE block_id = b.id) NOT IN (0, b.rotations)`).Scan(&half))
	assert.Zero(t, half, "no block half played")
	var byWorker int
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT COUNT(*) FROM matches m JOIN workers w ON w.id = m.worker_id
		WHERE m.block_id = $1 AND w.pid = $2`, block, w.cmd.Process.Pid).Scan(&byWorker))
	assert.Equal(t, rotations, byWorker, "the games name the worker as it registered (its River client started before)")
	require.Contains(t, out, "worker stopping")
	after := out[strings.Index(out, "worker stopping"):]
	assert.Equal(t, rotations, strings.Count(after, "block="+strconv.FormatInt(block, 10)+" rotation="),
		"the game in flight at the signal and the one after it were recorded after it")
	q, err := jobtable.Count(context.Background(), pool)
	require.NoError(t, err)
	assert.Zero(t, q.Retrying, "no job failed")
	var state string
	var attempt int
	require.NoError(t, pool.QueryRow(ctx, `SELECT state::text, attempt FROM river_job WHERE id = $1`, job).Scan(&state, &attempt))
	assert.Equal(t, "available", state, "the rest of the job waits in the queue at once")
	assert.Zero(t, attempt, "the attempt cut short by the stop does not count")
	for _, b := range rest {
		games, _ := blockGames(t, pool, b)
		assert.Zero(t, games, "block %d, after the one under way, was handed back unplayed", b)
	}
	assert.Subset(t, waitingBlocks(t, pool), rest, "the job's other blocks wait in the queue")
}

// A second signal stops the worker at once: the block under way is cut (its bots
// stopped), its job goes back to the queue for the rest, and the worker exits 0 long
// before the block could have ended or the soft stop's time run out.
func TestASecondSignalStopsAWorkerAtOnce(t *testing.T) {
	// 400 ms a decision: a game lasts over ten seconds, so the block's second game
	// cannot have been played by the second signal, a second after the first.
	w, pool, block := stoppingWorker(t, 400*time.Millisecond, "--stop-timeout", "10m")
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGTERM))
	require.True(t, poll.Within(time.Minute, func() bool { return strings.Contains(w.text(), "worker stopping") }), w.text())
	// Two signals within sameSignal count as one (GNU timeout sends two): wait past it.
	time.Sleep(sameSignal + 100*time.Millisecond)
	second := time.Now()
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGTERM))
	// The bots' stop and River's hand-back take a moment; hardStop bounds the wait
	// in the worker, and the margin is load's room.
	require.Equal(t, 0, waitExit(t, w, hardStop+30*time.Second), w.text())
	t.Logf("exited %v after the second signal", time.Since(second).Round(time.Millisecond))
	out := w.text()
	assert.Contains(t, out, "arena: stopping at once")
	assert.Contains(t, out, "went back to the queue")
	games, rotations := blockGames(t, pool, block)
	assert.Less(t, games, rotations, "the block was cut, not played to its end")
	assert.Contains(t, waitingBlocks(t, pool), block, "its job waits in the queue again")
	var alive int
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT COUNT(*) FROM workers WHERE stopped IS NULL`).Scan(&alive))
	assert.Zero(t, alive, "the worker unregistered")
}
