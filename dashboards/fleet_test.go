package dashboards

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

const fleetUID = "arena-ladder-fleet"

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
// PostgreSQL: a coordinator (arena ladder serve --db postgres://, scraped by a real
// Prometheus with the shipped rules), a real arena worker playing its blocks, and a
// worker registered and heartbeating as workers do (store.KeepAlive). Every query of
// the fleet dashboard must parse and return data, and once the playing worker has
// stopped the panels must show the queue the coordinator filled and the worker alive.
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
	coordAddr := freeAddr(t)
	api, _ := startPrometheus(t, promBin, dir, `
  - job_name: arena-ladder
    static_configs:
      - targets: ["`+coordAddr+`"]
`)
	const depth = 4
	start(t, dir, arenaBin, "ladder", "serve", "--db", db, "--game", "ivanhoe", "--addr", "127.0.0.1:0",
		"--metrics-addr", coordAddr, "--refresh", "1s", "--queue-depth", strconv.Itoa(depth))
	worker := start(t, dir, arenaBin, "worker", "--db", db, "-j", "1")

	st, err := store.OpenPostgres(context.Background(), db, t.TempDir())
	require.NoError(t, err)
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, done, err := store.KeepAlive(ctx, st, store.Worker{Host: "test-host", PID: os.Getpid(), Slots: 1}, func(err error) { t.Log(err) })
	require.NoError(t, err)

	// The worker plays until it has recorded games; stopped, it plays no more and the
	// coordinator fills the queue to its depth, where it stays.
	waitFor(t, 5*time.Minute, func() bool {
		n := 0
		_ = st.Matches(ctx, "ivanhoe", func(store.Match) error { n++; return nil })
		return n >= 4
	}, "games recorded by the worker: "+worker.stderr.String())
	require.NoError(t, worker.cmd.Process.Signal(os.Interrupt))
	require.NoError(t, worker.cmd.Wait(), worker.stderr.String())
	var queued int
	waitFor(t, time.Minute, func() bool {
		f, err := st.Fleet(ctx, time.Minute)
		queued = f.Queued
		return err == nil && f.Queued >= depth
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
		n, err := query(api, `max(arena_ladder_queue_depth) == `+strconv.Itoa(queued), at)
		return err == nil && n == 1
	}, "a scrape of the full queue")
	everyQueryReturnsData(t, api, fleet, at, time.Since(setup))

	assert.Equal(t, float64(queued), scalar(t, api, panelExpr(t, fleet, "Blocks queued", 0), at), "the panel shows the queue the database holds")
	oldest := scalar(t, api, panelExpr(t, fleet, "Oldest queued block", 0), at)
	assert.Greater(t, oldest, 0.0)
	assert.Less(t, oldest, time.Since(setup).Seconds(), "no block is older than the test")
	alive := vector(t, api, Substitute(panelExpr(t, fleet, "Workers", 0), map[string]string{"host": ".*"}), at, "host")
	assert.Equal(t, 1.0, alive["test-host"], "the heartbeating worker is alive")
	assert.GreaterOrEqual(t, scalar(t, api, panelExpr(t, fleet, "Workers alive", 0), at), 1.0)

	cancel()
	<-done
}
