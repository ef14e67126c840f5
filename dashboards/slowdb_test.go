package dashboards

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestNoAlertTimerResetsUnderASlowDatabase runs a real coordinator (arena ladder serve
// on a real PostgreSQL, no worker) scraped as the shipped config does (every 5 s, with
// a 5 s timeout) by a real Prometheus with the shipped rules. With no worker, ArenaNoWorkers goes pending (its for: is 5 minutes).
// Then another connection holds the games' and the workers' tables locked, so that
// every read of them waits: the running aggregates and the fleet's state (the
// alert's inputs) stop catching up, as under a database that is slow or stuck. For
// over a minute of that:
//   - the target stays up and each scrape answers within its timeout (from memory);
//   - ArenaNoWorkers stays pending with the same start (ALERTS_FOR_STATE): its timer
//     does not restart;
//   - the Totals' age panel shows the stall and ArenaLadderAggregatesBehind goes
//     pending for the ladder;
//
// then the calls that wait are ended (failReads), which the store-errors panel counts,
// and once the lock is gone the totals catch up again (the age falls under 5 s).
func TestNoAlertTimerResetsUnderASlowDatabase(t *testing.T) {
	promBin := requireTool(t, "prometheus")
	db := pgtest.URL(t)
	dir := t.TempDir()
	arenaBin := filepath.Join(dir, "arena")
	out, err := exec.Command("go", "build", "-o", arenaBin, "../cmd/arena").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(arenaBin, "bot", "add", bot, "--db", db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	addr := testkit.FreeAddr(t)
	coord := start(t, dir, arenaBin, "ladder", "serve", "--db", db, "--game", "ivanhoe", "--ladder-name", "slow", "--addr", testkit.FreeAddr(t),
		"--metrics-addr", addr, "--refresh", "1s", "--queue-depth", "2")
	// Scraped as the shipped config does: every 5 s, each scrape given 5 s.
	api, _ := startPrometheusEvery(t, promBin, filepath.Join(dir, "prom"), "5s", fmt.Sprintf("\n  - job_name: arena-ladder\n    static_configs:\n      - targets: [%q]\n", addr))
	ds, err := Load()
	require.NoError(t, err)

	forState := `ALERTS_FOR_STATE{alertname="ArenaNoWorkers", ladder="slow"}`
	var since float64
	waitFor(t, 3*time.Minute, func() bool {
		res, err := instant(api, forState, time.Now())
		if err != nil || len(res) != 1 {
			return false
		}
		since = res[0].value(t)
		return true
	}, "ArenaNoWorkers pending", coord)

	conn, err := pgx.Connect(context.Background(), db)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	tx, err := conn.Begin(context.Background())
	require.NoError(t, err)
	asked := time.Now()
	_, err = tx.Exec(context.Background(), `LOCK TABLE matches, workers IN ACCESS EXCLUSIVE MODE`)
	require.NoError(t, err)
	locked := time.Now()
	t.Logf("the lock was granted in %s", locked.Sub(asked).Round(time.Millisecond))
	age := panelQuery(t, ds, "Totals' age", 0, vars("ladder", "slow"))
	// The age passes a minute, and the alert on it is evaluated every second after.
	waitFor(t, 3*time.Minute, func() bool {
		n, err := query(api, `ALERTS{alertname="ArenaLadderAggregatesBehind", ladder="slow", alertstate="pending"}`, time.Now())
		return err == nil && n == 1
	}, "ArenaLadderAggregatesBehind pending")
	at := time.Now()
	held := seconds(at.Sub(locked))
	// The last catch-up ended before the lock was granted and at most about a second
	// (their period) before it was asked for; 2.5 s cover a loaded machine.
	behind := scalar(t, api, age, at)
	assert.True(t, behind >= at.Sub(locked).Seconds() && behind <= at.Sub(asked).Seconds()+2.5,
		"the Totals' age panel shows the stall: %.2f s, locked %.2f s before", behind, at.Sub(locked).Seconds())
	inst := fmt.Sprintf("instance=%q", addr)
	assert.Equal(t, 1.0, scalar(t, api, fmt.Sprintf("min_over_time(up{%s}[%s])", inst, held), at), "the target stayed up")
	// A scrape answers from memory in milliseconds (a second or so when a loaded
	// machine schedules it late); one that read the locked tables would wait for the
	// whole lock and time out at 5 s, and the target would be down.
	slowest := scalar(t, api, fmt.Sprintf("max_over_time(scrape_duration_seconds{%s}[%s])", inst, held), at)
	assert.Less(t, slowest, 4.0, "scrapes stayed within their timeout")
	assert.Equal(t, since, scalar(t, api, fmt.Sprintf("min_over_time(%s[%s])", forState, held), at), "ArenaNoWorkers's timer did not restart")
	assert.Equal(t, since, scalar(t, api, fmt.Sprintf("max_over_time(%s[%s])", forState, held), at), "ArenaNoWorkers's timer did not restart")
	t.Logf("database locked for %s: slowest scrape %.3f s, ArenaNoWorkers pending since %s throughout", held, slowest, time.Unix(int64(since), 0).Format(time.TimeOnly))

	failReads(t, api, ds, tx, addr, locked)
	require.NoError(t, tx.Rollback(context.Background()))
	waitFor(t, time.Minute, func() bool {
		res, err := instant(api, age, time.Now())
		return err == nil && len(res) == 1 && res[0].value(t) < 5
	}, "the totals catching up once the lock is gone")
	assert.Equal(t, since, scalar(t, api, forState, time.Now()), "ArenaNoWorkers still pending since the same time")
}

// failReads ends, through tx (which holds the lock), every call of the coordinator
// that waits on the locked tables (pg_terminate_backend: its query fails) until a
// refit has failed; then, over the time since the lock, the store-errors panel shows
// at least one failed refit, at least as many failed store calls (a refit fails on
// its read) and no more than the calls ended (some were the web service's or the
// fleet's reads, which the store's counter does not see).
func failReads(t *testing.T, api string, ds []Dashboard, tx pgx.Tx, addr string, locked time.Time) {
	ended := 0
	failedRefit := fmt.Sprintf(`sum(arena_ladder_refits_total{instance=%q, outcome="error"}) > 0`, addr)
	waitFor(t, time.Minute, func() bool {
		var n int
		require.NoError(t, tx.QueryRow(context.Background(), `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_locks
			WHERE NOT granted AND relation IN ('matches'::regclass, 'workers'::regclass) AND pid <> pg_backend_pid()`).Scan(&n))
		ended += n
		k, err := query(api, failedRefit, time.Now())
		return err == nil && k == 1
	}, "a refit failed")
	at := time.Now()
	window := at.Sub(locked) + 5*time.Second
	v := vars("ladder", "slow", "__rate_interval", seconds(window))
	store := 0.0
	for _, s := range samples(t, api, panelQuery(t, ds, "Store and refit errors per minute", 0, v), at) {
		store += s.value(t) * window.Minutes()
	}
	refits := scalar(t, api, panelQuery(t, ds, "Store and refit errors per minute", 1, v), at) * window.Minutes()
	t.Logf("%d calls ended: the panel shows %.2f failed store calls and %.2f failed refits", ended, store, refits)
	// rate() extrapolates the window's increase by up to a scrape (5 s) in the window's
	// 65 s or more: 10% covers it.
	assert.GreaterOrEqual(t, refits, 0.9, "a refit failed")
	assert.GreaterOrEqual(t, store*1.1, refits, "a failed refit's read is a failed store call")
	assert.LessOrEqual(t, store, float64(ended)*1.1, "no more failed store calls than calls ended")
}
