package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The test binary doubles as the bare process, as the command does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == bareServeArg {
		serveBare()
		return
	}
	os.Exit(m.Run())
}

// The bare side carries the arena's sizes: every message encodes to the size of the
// request it stands for (within a length prefix's byte), for requests that vary.
func TestBareMessagesHaveTheArenaRequestsSizes(t *testing.T) {
	msgs, reqs, reply, err := wireSizes(300, 1)
	require.NoError(t, err)
	require.Len(t, reqs, len(msgs))
	require.GreaterOrEqual(t, len(msgs), 300)
	for i := range msgs {
		assert.InDelta(t, proto.Size(reqs[i]), proto.Size(msgs[i]), 1, "message %d", i)
	}
	assert.Less(t, minSize(msgs), maxSize(msgs), "sizes vary as the game goes on")
	assert.InDelta(t, reply, payload(reply)+2, 1)
}

// The bare process answers every message on one stream and on two at once, and a
// start of it makes a first round trip.
func TestBareStreamAnswersEveryMessage(t *testing.T) {
	msgs, reqs, reply, err := wireSizes(50, 2)
	require.NoError(t, err)
	b, err := startBare(payload(reply))
	require.NoError(t, err)
	defer b.stop()
	s, err := b.open()
	require.NoError(t, err)
	require.NoError(t, s.roundTrip(msgs[0]))
	assert.Len(t, s.in.Value, payload(reply), "the reply has the size of the arena's")
	s.close()
	for _, streams := range []int{1, 2} {
		d, err := bareRoundTrips(b, msgs[:50], streams)
		require.NoError(t, err)
		assert.Positive(t, d)
	}
	d, err := structuredRoundTrips(b, reqs[:50])
	require.NoError(t, err)
	assert.Positive(t, d)
	start, err := barePluginStarts(2, msgs[0], payload(reply))
	require.NoError(t, err)
	assert.Positive(t, start)
}

// Two bare processes asked in turn, each message by the seat of the request it stands
// for, as a match asks its two bots: both seats are asked, and every message answered.
func TestTwoBareServersAnswerInTurn(t *testing.T) {
	msgs, reqs, reply, err := wireSizes(80, 4)
	require.NoError(t, err)
	var seats []int
	for _, r := range reqs[:80] {
		seats = append(seats, int(r.Seat%2))
	}
	assert.Contains(t, seats, 0)
	assert.Contains(t, seats, 1)
	var procs [2]*bareProc
	for i := range procs {
		procs[i], err = startBare(payload(reply), "GOMAXPROCS=1")
		require.NoError(t, err)
		defer procs[i].stop()
	}
	d, err := bareInTurn(procs, msgs[:80], seats)
	require.NoError(t, err)
	assert.Positive(t, d)
}

// The Go SDK's layer in the bare process plays the requests of a started match: every
// answer is a legal index of its request's options, for its own question.
func TestSDKInTheBareProcessAnswersLegally(t *testing.T) {
	_, reqs, reply, err := wireSizes(60, 3)
	require.NoError(t, err)
	b, err := startBare(payload(reply))
	require.NoError(t, err)
	defer b.stop()
	l := sdkInBare(b)
	id, err := l.start()
	require.NoError(t, err)
	st, err := l.client().Match(context.Background())
	require.NoError(t, err)
	for _, r := range asMatch(reqs[:60], id) {
		require.NoError(t, st.Send(r))
		rep, err := st.Recv()
		require.NoError(t, err)
		assert.Equal(t, r.SeatDecision, rep.SeatDecision)
		assert.True(t, rep.Choice >= 0 && int(rep.Choice) < len(r.Options), "choice %d of %d options", rep.Choice, len(r.Options))
	}
	require.NoError(t, st.CloseSend())
	d, err := l.rawRoundTrips(reqs[:60])
	require.NoError(t, err)
	assert.Positive(t, d)
}

func TestSpreadIsMinMedianMax(t *testing.T) {
	lo, mid, hi := spread([]float64{3, 1, 2, 5, 4})
	assert.Equal(t, []float64{1, 3, 5}, []float64{lo, mid, hi})
	_, mid, _ = spread([]float64{4, 1, 2, 3})
	assert.Equal(t, 2.5, mid)
	got, err := medianOf(3, func() func() (time.Duration, error) {
		v := []time.Duration{30, 10, 20}
		return func() (time.Duration, error) { d := v[0]; v = v[1:]; return d, nil }
	}())
	require.NoError(t, err)
	assert.Equal(t, time.Duration(20), got)
}

// A worker row's run plays a fresh PostgreSQL ladder with a real coordinator and
// worker, counts the games it recorded, and leaves no schema behind.
func TestWorkerRunCountsItsGames(t *testing.T) {
	dsn := os.Getenv("ARENA_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("ARENA_TEST_POSTGRES is not set (url=$(.ci/postgres.sh start $(mktemp -d)))")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", dir+"/", "../arena", "../arena-sandbox")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	ctx := context.Background()
	pg, err := openPG(ctx, dsn)
	require.NoError(t, err)
	defer pg.close()
	before := time.Now()
	w, err := runWorker(ctx, filepath.Join(dir, "arena"), pg, 20, 2)
	elapsed := time.Since(before)
	require.NoError(t, err)
	assert.Equal(t, 20, w.games, "the run is timed to its 20th game")
	assert.Positive(t, w.gamesPerSec())
	assert.Less(t, w.wall, elapsed, "the 20th game ended within the call")
	assert.Positive(t, w.steady)
	assert.Less(t, w.steady, w.wall, "the games' span is within the run")
	var left int
	require.NoError(t, pg.conn.QueryRow(ctx, `SELECT COUNT(*) FROM pg_namespace WHERE nspname LIKE 'arenabench\_%'`).Scan(&left))
	assert.Zero(t, left, "the run's schema is dropped")
}

// The worker rows compare each -j's worker with the match of the same -j, without
// replays (the goal's row) and with them, each repetition's ratio on its own.
func TestWorkerRowsPairEachJobsWithItsMatch(t *testing.T) {
	run := func(games int) matchRun { return matchRun{wall: time.Second, games: games} }
	work := func(games int) workerRun { return workerRun{wall: time.Second, games: games, steady: time.Second / 2} }
	r := rep{j1: run(100), r1: run(50), w1: work(40), j2: run(200), r2: run(160), w2: work(80), j4: run(400), r4: run(200), w4: work(100)}
	var buf strings.Builder
	printTable(&buf, []rep{r}, workerRows(false))
	for _, want := range []string{
		"| games/s, arena worker (PostgreSQL) / arena match, -j 1 | 0.40 [0.40-0.40] | 40/s vs 100/s | >= 0.8 |",
		"| games/s, arena worker (PostgreSQL) / arena match with replays, -j 1 | 0.80 [0.80-0.80] | 40/s vs 50/s |  |",
		"| games/s, arena worker past its start (first to last game) / arena match, -j 1 | 0.78 [0.78-0.78] | 78/s vs 100/s |  |",
		"| games/s, arena worker (PostgreSQL) / arena match, -j 2 | 0.40 [0.40-0.40] | 80/s vs 200/s | >= 0.8 |",
		"| games/s, arena worker (PostgreSQL) / arena match with replays, -j 2 | 0.50 [0.50-0.50] | 80/s vs 160/s |  |",
		"| games/s, arena worker (PostgreSQL) / arena match, -j 4 | 0.25 [0.25-0.25] | 100/s vs 400/s |  |",
		"| games/s, arena worker (PostgreSQL) / arena match with replays, -j 4 | 0.50 [0.50-0.50] | 100/s vs 200/s |  |",
	} {
		assert.Contains(t, buf.String(), want)
	}
}

// The CPU of a start is taken from the started process itself, once its handshake is
// read, and the process is gone after.
func TestAStartsCPUIsTakenAtTheHandshake(t *testing.T) {
	d, err := bareCPU(16)
	require.NoError(t, err)
	assert.Positive(t, d)
	_, err = botCPU("/bin/true")
	assert.ErrorContains(t, err, "no handshake")
}

// The fastchess row divides by the plies fastchess played, read from its games file.
func TestFastchessPliesAreReadFromItsGames(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	games := "[Event \"?\"]\n[PlyCount \"117\"]\n[Termination \"normal\"]\n\n1. e4 e5 *\n\n" +
		"[Event \"?\"]\n[PlyCount \"3\"]\n\n1. d4 d5 2. c4 *\n"
	require.NoError(t, os.WriteFile(pgn, []byte(games), 0o644))
	plies, n, err := pgnPlies(pgn)
	require.NoError(t, err)
	assert.Equal(t, 120, plies)
	assert.Equal(t, 2, n)

	require.NoError(t, os.WriteFile(pgn, []byte("[PlyCount \"many\"]\n"), 0o644))
	_, _, err = pgnPlies(pgn)
	assert.ErrorContains(t, err, "not a number")

	c := chessRun{wall: 120 * time.Millisecond, plies: 120, games: 2}
	assert.Equal(t, time.Millisecond, c.perMove())
}
