package dashboards

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

const fleetUID, webUID = "arena-ladder-fleet", "arena-ladder-web"

// without is ds less the dashboard uid.
func without(ds []Dashboard, uid string) []Dashboard {
	var out []Dashboard
	for _, d := range ds {
		if d.UID != uid {
			out = append(out, d)
		}
	}
	return out
}

// TestFleetDashboardAgainstARealPrometheus runs a ladder shared through a real
// PostgreSQL: a coordinator (arena ladder serve --db postgres://) and a real arena
// worker playing its blocks, both scraped by a real Prometheus with the shipped rules;
// the worker's own series carry its registered ID. Once
// the worker has recorded games it is frozen (SIGSTOP): it plays no more, and the
// coordinator fills the queue to its depth, where it stays. Then every query of the
// fleet dashboard must parse and return data, and the panels must show that queue, the
// worker and the games it recorded in the minute before the scrape.
func TestFleetDashboardAgainstARealPrometheus(t *testing.T) {
	promBin := requireTool(t, "prometheus")
	db := pgtest.URL(t)
	setup := time.Now()
	dir := t.TempDir()
	arenaBin := filepath.Join(dir, "arena")
	out, err := exec.Command("go", "build", "-o", arenaBin, "../cmd/arena").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(arenaBin, "bot", "add", bot, "--db", db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	coordAddr, workerAddr := testkit.FreeAddr(t), testkit.FreeAddr(t)
	api, _ := startPrometheus(t, promBin, dir, `
  - job_name: arena-ladder
    static_configs:
      - targets: ["`+coordAddr+`"]
  - job_name: arena-worker
    static_configs:
      - targets: ["`+workerAddr+`"]
`)
	const depth = 4
	start(t, dir, arenaBin, "ladder", "serve", "--db", db, "--game", "ivanhoe", "--addr", "127.0.0.1:0",
		"--metrics-addr", coordAddr, "--refresh", "1s", "--queue-depth", strconv.Itoa(depth))
	worker := start(t, dir, arenaBin, "worker", "--db", db, "-j", "1", "--metrics-addr", workerAddr)
	defer func() { // thawed and stopped, so that it stops its bots
		_ = worker.cmd.Process.Signal(syscall.SIGCONT)
		_ = worker.cmd.Process.Signal(os.Interrupt)
		_ = worker.cmd.Wait()
	}()

	ctx := context.Background()
	st, err := store.OpenPostgres(ctx, db, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	waitFor(t, 5*time.Minute, func() bool {
		n := 0
		_ = st.Matches(ctx, "ivanhoe", func(store.Match) error { n++; return nil })
		return n >= 4
	}, "games recorded by the worker: "+worker.stderr.String())
	ws, err := st.Workers(ctx)
	require.NoError(t, err)
	require.Len(t, ws, 1, "the worker registered")
	id := strconv.FormatInt(ws[0].ID, 10)
	waitFor(t, time.Minute, func() bool {
		n, err := query(api, `sum(arena_matches_finished_total{job="arena-worker", worker="`+id+`"}) > 0`, time.Now())
		return err == nil && n == 1
	}, "the worker's own series, labelled with its registered ID")
	require.NoError(t, worker.cmd.Process.Signal(syscall.SIGSTOP))
	waitFor(t, time.Minute, func() bool {
		f, err := st.Fleet(ctx, time.Minute)
		return err == nil && f.Queued == depth
	}, "the queue filled")

	ds, err := Load()
	require.NoError(t, err)
	var fleet []Dashboard
	for _, d := range ds {
		if d.UID == fleetUID {
			fleet = append(fleet, d)
		}
	}
	require.Len(t, fleet, 1)
	var at time.Time
	waitFor(t, time.Minute, func() bool { // scraped since the queue settled
		at = time.Now()
		n, err := query(api, `max(arena_ladder_queue_depth) == `+strconv.Itoa(depth), at)
		return err == nil && n == 1
	}, "a scrape of the full queue")
	everyQueryReturnsData(t, api, fleet, at, time.Since(setup))
	all := map[string]string{"job": ".*", "ladder": ".*", "host": ".*"}

	assert.Equal(t, float64(depth), scalar(t, api, Substitute(panelExpr(t, fleet, "Blocks queued", 0), all), at), "the coordinator keeps --queue-depth blocks waiting")
	oldest := scalar(t, api, Substitute(panelExpr(t, fleet, "Oldest queued block", 0), all), at)
	assert.Greater(t, oldest, 0.0)
	assert.Less(t, oldest, time.Since(setup).Seconds(), "no block is older than the test")
	workers := vector(t, api, Substitute(panelExpr(t, fleet, "Workers", 0), all), at, "worker")
	require.Len(t, workers, 1, "the one worker")
	require.Contains(t, workers, id, "the coordinator's worker label is the one the worker labels its own series with")
	assert.Contains(t, []float64{0, 1}, workers[id], "alive, or gone once frozen 30 s")
	rate := vector(t, api, Substitute(panelExpr(t, fleet, "Games per second per worker", 0), all), at, "worker")
	gamesInWindow(t, db, id, scrapedAt(t, api, id, at), rate[id])
}

// scrapedAt is when Prometheus last scraped the worker's games per second before at.
func scrapedAt(t *testing.T, api, worker string, at time.Time) time.Time {
	ts := scalar(t, api, `timestamp(arena_ladder_worker_games_per_second{worker="`+worker+`"})`, at)
	return time.UnixMilli(int64(ts * 1000))
}

// gamesInWindow: the panel's games per second is the worker's games recorded in the
// minute before the exporter's read of the database. That read came at most a second
// before the scrape (a younger read is reused) or during it, after the exporter's read
// of every game, which takes well under the ten seconds allowed here even on a loaded
// machine. So the count lies between the games of the minute every such read covers
// and those of the minute any of them could.
func gamesInWindow(t *testing.T, db, worker string, scraped time.Time, rate float64) {
	conn, err := pgx.Connect(context.Background(), db)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	count := func(after, upTo time.Time) float64 {
		var n int
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM matches WHERE worker_id = $1 AND recorded > $2 AND recorded <= $3`,
			worker, after, upTo).Scan(&n))
		return float64(n)
	}
	const before, during = time.Second, 10 * time.Second
	most := count(scraped.Add(-time.Minute-before), scraped.Add(during))
	least := count(scraped.Add(during-time.Minute), scraped.Add(-before))
	assert.Greater(t, most, 0.0, "the worker's games are named by it")
	assert.GreaterOrEqual(t, rate*60, least-1e-9)
	assert.LessOrEqual(t, rate*60, most+1e-9)
	t.Logf("games per second per worker: panel %.4f, database %.0f..%.0f games in the minute", rate, least, most)
}
