package dashboards

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the fleet's database, as database/sql "pgx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the SQLite ladders, as database/sql "sqlite"

	"github.com/arena-games/arena/ladder/store"
)

// ladderHealthPanels checks, for every ladder (the two SQLite ones lingering after
// their runs, the shared one serving), the panels of the ladder overview that say
// how the ladder keeps up and what it costs, against what the test knows:
//   - the refit age, the refit's duration and the totals' age, each per ladder, are
//     bounded by the schedule the test gave them (below);
//   - the replays' disk free is the share statfs(2) gives for the ladder's folder;
//   - no store call or refit failed (every ladder's series is there, at 0);
//   - each bot's share of ladder seats forfeited over the runs is the database's.
func ladderHealthPanels(t *testing.T, api string, ds []Dashboard, ladders []*ladderRun, window time.Duration) {
	at := time.Now()
	v := vars("__rate_interval", seconds(window))
	perLadder := func(title string, i int) map[string]float64 {
		got := vector(t, api, panelQuery(t, ds, title, i, v), at, "ladder")
		names := make([]string, 0, len(got))
		for name := range got {
			names = append(names, name)
		}
		assert.ElementsMatch(t, []string{"club", "kk", "fleet"}, names, "%s: a value per ladder", title)
		return got
	}
	// Every ladder refits every --refresh (1 s), a refit of a few hundred games takes
	// milliseconds and the totals catch up every second, and Prometheus scrapes every
	// second: each age is under 1 + 1 s but for the machine's load, which the 8 s
	// allowed cover (a refit or a catch-up that stalled, or a panel that shows the
	// oldest ladder's age as every ladder's, exceeds it within seconds). A refit takes
	// less than its period, or refits would queue behind one another.
	for _, c := range []struct {
		title string
		most  float64
	}{{"Refit age", 8}, {"Totals' age", 8}, {"Refit duration", 1}} {
		for name, age := range perLadder(c.title, 0) {
			assert.True(t, age >= 0 && age <= c.most, "%s of %s: %.3f s, in [0, %g]", c.title, name, age, c.most)
		}
		verify(t, ds, c.title)
	}
	replaysDisk(t, api, ds, ladders, at)
	for _, l := range ladders {
		seatsForfeited(t, api, ds, l, at, window)
	}
	verify(t, ds, "Share of ladder seats forfeited")
	// No store call or refit failed here (TestNoAlertTimerResetsUnderASlowDatabase
	// makes some fail): every ladder's series are there, at 0.
	for name, n := range perLadder("Store and refit errors per minute", 1) {
		assert.Zero(t, n, "%s: no refit failed", name)
	}
	seen := map[string]bool{}
	for _, s := range samples(t, api, panelQuery(t, ds, "Store and refit errors per minute", 0, v), at) {
		seen[s.Metric["ladder"]] = true
		assert.Zero(t, s.value(t), "%s: no %s failed", s.Metric["ladder"], s.Metric["op"])
	}
	assert.Len(t, seen, 3, "every ladder counts its store's errors")
	verify(t, ds, "Store and refit errors per minute")
}

// replaysDisk: each ladder process's share of its replays' file system free is what
// statfs(2) says of the folder now, within 1% of the disk (other tests write there
// meanwhile).
func replaysDisk(t *testing.T, api string, ds []Dashboard, ladders []*ladderRun, at time.Time) {
	got := map[string]float64{}
	for _, s := range samples(t, api, panelQuery(t, ds, "Replays' disk free", 0, vars()), at) {
		got[s.Metric["ladder"]+" "+s.Metric["instance"]] = s.value(t)
	}
	for _, l := range ladders {
		dir := filepath.Dir(l.db)
		if l.name == "fleet" {
			d, err := store.DefaultCacheDir(l.db)
			require.NoError(t, err)
			dir = d
		}
		var st syscall.Statfs_t
		for syscall.Statfs(dir, &st) != nil && dir != filepath.Dir(dir) { // the folder's first that exists
			dir = filepath.Dir(dir)
		}
		want := float64(st.Bavail) / float64(st.Blocks)
		key := l.name + " " + l.addr
		assert.InDelta(t, want, got[key], 0.01, "%s: replays' disk free, panel %v, statfs %.4f", key, got, want)
	}
	verify(t, ds, "Replays' disk free")
}

// seatsForfeited: over a window that holds the ladder's games, each bot's share of its
// seats forfeited is the database's share of the games recorded in it. A ladder whose
// bots never forfeited shows exactly 0; otherwise the games recorded before the first
// scrape, which no increase sees, may move the share by their number over the games.
func seatsForfeited(t *testing.T, api string, ds []Dashboard, l *ladderRun, at time.Time, window time.Duration) {
	driver, src := "sqlite", "file:"+l.db+"?mode=ro"
	if l.name == "fleet" {
		driver, src = "pgx", l.db
	}
	db, err := sql.Open(driver, src)
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.Query(`SELECT b.name, COUNT(*), SUM(CASE WHEN s.ending = 'ok' THEN 0 ELSE 1 END) FROM match_seats s JOIN bots b ON b.id = s.bot_id GROUP BY b.name`)
	require.NoError(t, err)
	defer rows.Close()
	want := map[string][2]float64{}
	for rows.Next() {
		var name string
		var seats, forfeits float64
		require.NoError(t, rows.Scan(&name, &seats, &forfeits))
		want[name] = [2]float64{seats, forfeits}
	}
	require.NoError(t, rows.Err())
	got := vector(t, api, panelQuery(t, ds, "Share of ladder seats forfeited", 0, vars("ladder", l.name, "__rate_interval", seconds(window))), at, "bot")
	for bot, w := range want {
		t.Logf("%s: %s forfeited %.0f of %.0f seats; panel %.4f", l.name, bot, w[1], w[0], got[bot])
		if w[1] == 0 {
			assert.Equal(t, 0.0, got[bot], "%s: %s never forfeited", l.name, bot)
			continue
		}
		assert.InDelta(t, w[1]/w[0], got[bot], 0.05+12/w[0], "%s: %s's share of seats forfeited", l.name, bot)
	}
	assert.Len(t, got, len(want), "%s: a share for each bot that played: %v", l.name, fmt.Sprint(got))
}
