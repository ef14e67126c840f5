package dashboards

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/tracing/otlptest"
	"github.com/arena-games/arena/ladder/queue/jobtable"
)

// fleetDepth is the coordinator's --queue-depth: the queue holds at least that many
// once the workers are frozen.
const fleetDepth = 4

// fleetRun is the test's ladder shared through a real PostgreSQL: a coordinator (arena
// ladder serve, which also serves the web pages) and two real arena workers playing its
// blocks, each with its own metrics address, and exporting their traces to an OTLP
// receiver.
type fleetRun struct {
	ladderRun
	web     string
	workers []*proc
	addrs   []string
	traces  *otlptest.Receiver
}

func newFleet(t *testing.T, db string) *fleetRun {
	return &fleetRun{ladderRun: ladderRun{name: "fleet", game: "ivanhoe", db: db, addr: testkit.FreeAddr(t)},
		web: testkit.FreeAddr(t), addrs: []string{testkit.FreeAddr(t), testkit.FreeAddr(t)}}
}

// workerScrapes is the fleet's part of the Prometheus config: the coordinator beside the
// other ladders, the workers as arena-worker.
func (f *fleetRun) workerScrapes() string {
	return fmt.Sprintf("\n  - job_name: arena-worker\n    static_configs:\n      - targets: [%q, %q]\n", f.addrs[0], f.addrs[1])
}

// start adds the two bots the other ladders have, then runs the coordinator and the
// workers. Each worker is thawed and interrupted at the end, so that it stops its bots.
func (f *fleetRun) start(t *testing.T, dir, arenaBin string) {
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(arenaBin, "bot", "add", bot, "--db", f.db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	f.proc = start(t, dir, arenaBin, "ladder", "serve", "--db", f.db, "--game", f.game, "--ladder-name", f.name, "--addr", f.web,
		"--metrics-addr", f.addr, "--refresh", "1s", "--queue-depth", strconv.Itoa(fleetDepth))
	f.traces = otlptest.Start(t)
	// Spans leave a worker every 200 ms rather than the default 5 s.
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + f.traces.Endpoint, "OTEL_BSP_SCHEDULE_DELAY=200"}
	for _, addr := range f.addrs {
		w := startWith(t, env, dir, arenaBin, "worker", "--db", f.db, "--ladder-name", f.name, "-j", "1", "--metrics-addr", addr)
		f.workers = append(f.workers, w)
		t.Cleanup(func() {
			_ = w.cmd.Process.Signal(syscall.SIGCONT)
			_ = w.cmd.Process.Signal(os.Interrupt)
			_ = w.cmd.Wait()
		})
	}
}

// check waits until both workers have recorded games and the dashboards see them alive,
// then freezes them (SIGSTOP: they play no more and the coordinator fills the queue to
// its depth, where it stays), sends the web service known requests, and checks the
// fleet and web panels against the database and those requests.
func (f *fleetRun) check(t *testing.T, api string, ds []Dashboard) {
	conn, err := pgx.Connect(context.Background(), f.db)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	ids := f.bothWorkersPlay(t, api, ds, conn)
	f.blocksTraced(t, conn)
	f.gamesPerMinute(t, api, ds, conn)
	for _, w := range f.workers {
		require.NoError(t, w.cmd.Process.Signal(syscall.SIGSTOP))
	}
	f.frozen(t, api, ds, conn, ids)
	f.webPanels(t, api, ds)
}

// bothWorkersPlay waits until both workers have recorded games, the Workers alive
// panel shows both and each one's own series carry its registered ID (before the
// freeze, after which their targets are down and their series stale); it returns
// their IDs.
func (f *fleetRun) bothWorkersPlay(t *testing.T, api string, ds []Dashboard, conn *pgx.Conn) []string {
	var ids []string
	waitFor(t, 5*time.Minute, func() bool {
		ids = nil
		rows, err := conn.Query(context.Background(), `SELECT worker_id::text FROM matches GROUP BY worker_id`)
		if err != nil {
			return false
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if rows.Scan(&id) == nil {
				ids = append(ids, id)
			}
		}
		return len(ids) == 2
	}, "games recorded by both workers", append([]*proc{f.proc}, f.workers...)...)
	all := map[string]string{"job": ".*", "ladder": f.name}
	waitFor(t, time.Minute, func() bool {
		alive := vector(t, api, Substitute(panelExpr(t, ds, "Workers alive", 0), all), time.Now(), "ladder")
		return alive[f.name] == 2
	}, "the Workers alive panel at 2")
	verify(t, ds, "Workers alive")
	for _, id := range ids {
		waitFor(t, time.Minute, func() bool {
			n, err := query(api, `sum(arena_matches_finished_total{job="arena-worker", ladder="`+f.name+`", worker="`+id+`"}) > 0`, time.Now())
			return err == nil && n == 1
		}, "worker "+id+"'s own series, labelled with its registered ID")
	}
	f.poolUse(t, api, ds)
	return ids
}

// poolUse: while the workers play, the pool panel shows, under any job, each pool
// (the store's and River's) of the coordinator and of each worker, and each value is
// a whole number of connections over the pool's size, which every process takes from
// the URL as pgxpool does.
func (f *fleetRun) poolUse(t *testing.T, api string, ds []Dashboard) {
	cfg, err := pgxpool.ParseConfig(f.db)
	require.NoError(t, err)
	size := float64(cfg.MaxConns)
	var got map[string]float64
	scraped := pollUntil(time.Minute, func() bool { // each process's pools, scraped
		got = map[string]float64{}
		for _, s := range samples(t, api, panelQuery(t, ds, "Database pool use", 0, vars("ladder", f.name)), time.Now()) {
			got[s.Metric["instance"]+" "+s.Metric["pool"]] = s.value(t)
		}
		return len(got) == 6
	})
	require.True(t, scraped, "the store's and the queue's pools of the coordinator and both workers: %v", got)
	for _, addr := range append([]string{f.addr}, f.addrs...) {
		for _, pool := range []string{"store", "queue"} {
			use, ok := got[addr+" "+pool]
			require.True(t, ok, "%s's %s pool: %v", addr, pool, got)
			conns := use * size
			assert.True(t, conns >= 0 && conns <= size && math.Abs(conns-math.Round(conns)) < 1e-9,
				"%s's %s pool: %v of %v connections in use", addr, pool, conns, size)
		}
	}
	jobs := labelValues(t, api, Substitute(strings.TrimSuffix(strings.TrimPrefix(variableDef(t, ds, "ladder-fleet.json", "job"), "label_values("), ", job)"), vars()), "job", time.Now())
	assert.ElementsMatch(t, []string{"arena-ladder", "arena-worker"}, jobs, "the fleet's job variable lists the coordinator's job and the workers'")
	verify(t, ds, "Database pool use")
}

// variableDef is the definition of the dashboard's variable name.
func variableDef(t *testing.T, ds []Dashboard, file, name string) string {
	for _, d := range ds {
		if d.File == "grafana/"+file {
			for _, v := range d.Templating.List {
				if v.Name == name {
					return v.Definition
				}
			}
		}
	}
	t.Fatalf("%s has no variable %s", file, name)
	return ""
}

// frozen: with the workers frozen, once a scrape shows the queue the database holds
// (at least --queue-depth blocks: more when the coordinator kept the workers' pace
// waiting before they froze), the queue panels show it, the time since the last game
// is the database's, the workers table lists both workers and each one's games per
// second are its games in the database.
func (f *fleetRun) frozen(t *testing.T, api string, ds []Dashboard, conn *pgx.Conn, ids []string) {
	var at time.Time
	var c jobtable.Counts
	waitFor(t, time.Minute, func() bool { // scraped since the queue settled
		var err error
		c, err = jobtable.Count(context.Background(), conn)
		if err != nil || c.Queued < fleetDepth {
			return false
		}
		at = time.Now()
		n, err := query(api, `max(arena_ladder_queue_depth{ladder="`+f.name+`"}) == `+strconv.Itoa(c.Queued), at)
		return err == nil && n == 1
	}, "a scrape of the full queue")
	all := map[string]string{"job": ".*", "instance": ".*", "ladder": f.name, "game": ".*", "host": ".*"}
	f.frozenQueue(t, api, ds, all, c, at)
	var last time.Time
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT max(finished) FROM matches`).Scan(&last))
	since := vector(t, api, Substitute(panelExpr(t, ds, "Since the last game", 0), all), at, "ladder")
	// The last game is the database's last (the panel reads the time at its scrape,
	// under a second before at, to the millisecond).
	assert.InDelta(t, at.Sub(last).Seconds(), since[f.name], 1.5, "since the last game: the panel and the database")
	verify(t, ds, "Since the last game")
	workers := vector(t, api, Substitute(panelExpr(t, ds, "Workers", 0), all), at, "worker")
	assert.ElementsMatch(t, ids, keys(workers), "the workers table lists the workers that recorded games, by the IDs they label their own series with")
	verify(t, ds, "Workers")
	f.frozenWorkers(t, api, ds, conn, ids, all, at)
}

// frozenQueue: the queue panels at the scrape of the full queue are the database's
// count c (read just before it): the depth and the blocks waiting for a retry exactly,
// the oldest block's age within the 2 s between the coordinator's read and the
// test's (it reads at most a second before a scrape, which came at most a second
// before at).
func (f *fleetRun) frozenQueue(t *testing.T, api string, ds []Dashboard, all map[string]string, c jobtable.Counts, at time.Time) {
	assert.Equal(t, float64(c.Queued), scalar(t, api, Substitute(panelExpr(t, ds, "Blocks queued", 0), all), at), "the panel shows the blocks waiting in the database (at least --queue-depth)")
	verify(t, ds, "Blocks queued")
	assert.Equal(t, float64(c.Queued), scalar(t, api, Substitute(panelExpr(t, ds, "Queue depth and workers alive", 0), all), at), "queue depth over time, now")
	assert.Equal(t, float64(c.Retrying), scalar(t, api, Substitute(panelExpr(t, ds, "Blocks waiting for a retry", 0), all), at), "blocks waiting for a retry")
	verify(t, ds, "Blocks waiting for a retry")
	for _, title := range []string{"Oldest queued block", "Oldest queued block age"} {
		oldest := scalar(t, api, Substitute(panelExpr(t, ds, title, 0), all), at)
		assert.InDelta(t, c.OldestQueued.Seconds(), oldest, 2, "%s: the panel %.2f s, the database %.2f s", title, oldest, c.OldestQueued.Seconds())
		verify(t, ds, title)
	}
}

// frozenWorkers: each worker's games per second, per slot (-j 1) and summed over
// workers are its games in the database, within the window gamesInWindow explains;
// the workers alive and each one's heartbeat age are the database's heartbeats'.
func (f *fleetRun) frozenWorkers(t *testing.T, api string, ds []Dashboard, conn *pgx.Conn, ids []string, all map[string]string, at time.Time) {
	rate := vector(t, api, Substitute(panelExpr(t, ds, "Games per second per worker", 0), all), at, "worker")
	perSlot := vector(t, api, Substitute(panelExpr(t, ds, "Games per second per slot", 0), all), at, "worker")
	ages := vector(t, api, Substitute(panelExpr(t, ds, "Worker heartbeat age", 0), all), at, "worker")
	scraped := scrapedAt(t, api, ids[0], at)
	least, most := 0.0, 0.0
	for _, id := range ids {
		l, m := gamesInWindow(t, conn, id, scraped, rate[id])
		least, most = least+l, most+m
		assert.InDelta(t, rate[id], perSlot[id], 1e-12, "worker %s plays one game at a time (-j 1)", id)
		var hb time.Time
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT heartbeat FROM workers WHERE id = $1`, id).Scan(&hb))
		// The coordinator read the age at most a second before the scrape, which was
		// at most a second before at.
		age := at.Sub(hb).Seconds()
		assert.True(t, ages[id] <= age+0.1 && ages[id] >= age-2.1, "worker %s's heartbeat age: panel %.2f s, database %.2f s before at", id, ages[id], age)
	}
	verify(t, ds, "Games per second per worker")
	verify(t, ds, "Games per second per slot")
	verify(t, ds, "Worker heartbeat age")
	sum := scalar(t, api, Substitute(panelExpr(t, ds, "Games per second, all workers", 0), all), at)
	assert.True(t, sum*60 >= least-1e-9 && sum*60 <= most+1e-9, "all workers: %.4f games/s, database %.0f..%.0f in the minute", sum, least, most)
	verify(t, ds, "Games per second, all workers")
	// Alive: heartbeat within the last 30 s at the coordinator's read, which came
	// between 2 s before at and at.
	alive := func(before time.Time) float64 {
		var n int
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM workers WHERE stopped IS NULL AND heartbeat > $1`, before.Add(-30*time.Second)).Scan(&n))
		return float64(n)
	}
	got := scalar(t, api, Substitute(panelExpr(t, ds, "Queue depth and workers alive", 1), all), at)
	assert.True(t, got >= alive(at) && got <= alive(at.Add(-2*time.Second)), "workers alive: panel %v, database %v..%v", got, alive(at), alive(at.Add(-2*time.Second)))
	verify(t, ds, "Queue depth and workers alive")
}

func keys(m map[string]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
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
func gamesInWindow(t *testing.T, conn *pgx.Conn, worker string, scraped time.Time, rate float64) (least, most float64) {
	count := func(after, upTo time.Time) float64 {
		var n int
		require.NoError(t, conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM matches WHERE worker_id = $1 AND recorded > $2 AND recorded <= $3`,
			worker, after, upTo).Scan(&n))
		return float64(n)
	}
	const before, during = time.Second, 10 * time.Second
	most = count(scraped.Add(-time.Minute-before), scraped.Add(during))
	least = count(scraped.Add(during-time.Minute), scraped.Add(-before))
	assert.Greater(t, most, 0.0, "the worker's games are named by it")
	assert.GreaterOrEqual(t, rate*60, least-1e-9, "worker %s", worker)
	assert.LessOrEqual(t, rate*60, most+1e-9, "worker %s", worker)
	t.Logf("games per second of worker %s: panel %.4f, database %.0f..%.0f games in the minute", worker, rate, least, most)
	return least, most
}

// webPanels: the web service's panels count the requests the test sends, by route and
// status code. A counter's series is born with its first request, which no rate sees,
// so one request of each kind comes first and is scraped; the test then sends 30 to
// GET /healthz (200) and 10 to GET /bots/{id} for a bot that does not exist (404), and
// reads the panel at the first scrape that has them all, over a window that starts a
// millisecond before the scrape of the first requests: rate() then stretches the
// increase it sees by a millisecond over the window, which the 1% allowed covers.
func (f *fleetRun) webPanels(t *testing.T, api string, ds []Dashboard) {
	sel := `ladder="` + f.name + `", route=~"GET /healthz|GET /bots/\\{id\\}"`
	took := map[string][]float64{} // route: the client's time of each request counted
	send := func(n int, path string, code int) {
		for range n {
			began := time.Now()
			resp, err := http.Get("http://" + f.web + path)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			took[path] = append(took[path], time.Since(began).Seconds())
			require.Equal(t, code, resp.StatusCode, path)
		}
	}
	// scrapeOf is the time of the first scrape that counted total requests (the
	// series' own sample time: an aggregation's would be the query's).
	scrapeOf := func(total int) time.Time {
		var at time.Time
		waitFor(t, time.Minute, func() bool {
			res, err := instant(api, `timestamp(arena_http_requests_total{`+sel+`})`, time.Now())
			if err != nil || len(res) != 2 || res[0].Value[1] != res[1].Value[1] {
				return false
			}
			ts, err := strconv.ParseFloat(res[0].Value[1].(string), 64)
			at = time.UnixMilli(int64(math.Round(ts * 1000)))
			n, _ := query(api, `sum(arena_http_requests_total{`+sel+`}) == `+strconv.Itoa(total), at)
			return err == nil && n == 1
		}, fmt.Sprintf("a scrape of %d requests", total))
		return at
	}
	send(1, "/healthz", 200)
	send(1, "/bots/999999", 404)
	first := scrapeOf(2)
	took = map[string][]float64{}
	send(30, "/healthz", 200)
	send(10, "/bots/999999", 404)
	at := scrapeOf(42)
	window := at.Sub(first) + time.Millisecond
	values := map[string]string{"job": ".*", "instance": ".*", "ladder": f.name, "route": ".*",
		"__rate_interval": fmt.Sprintf("%dms", window.Milliseconds())}
	got := map[string]float64{}
	for _, s := range samples(t, api, Substitute(panelExpr(t, ds, "Requests per second by route and code", 0), values), at) {
		got[s.Metric["route"]+" "+s.Metric["code"]] = s.value(t) * window.Seconds()
	}
	assert.InEpsilon(t, 30, got["GET /healthz 200"], 0.01, "requests by route and code over the window: %v", got)
	assert.InEpsilon(t, 10, got["GET /bots/{id} 404"], 0.01, "requests by route and code over the window: %v", got)
	verify(t, ds, "Requests per second by route and code")
	share := vector(t, api, Substitute(panelExpr(t, ds, "Share of requests answered 5xx", 0), values), at, "ladder")
	assert.Equal(t, map[string]float64{f.name: 0}, share, "no request failed")
	verify(t, ds, "Share of requests answered 5xx")
	requestDurations(t, api, ds, values, at, map[string][]float64{"GET /healthz": took["/healthz"], "GET /bots/{id}": took["/bots/999999"]})
	inFlight := vector(t, api, Substitute(panelExpr(t, ds, "Requests in flight", 0), values), at, "ladder")
	assert.Equal(t, map[string]float64{f.name: 0}, inFlight, "no request in flight between the test's requests")
	verify(t, ds, "Requests in flight")
}

// requestBuckets are the bounds of the request duration's classic buckets.
var requestBuckets = prometheus.ExponentialBuckets(0.001, 4, 9)

// requestDurations: the service answers a request within the time the client waited
// for it, so each route's median and p99 over the window lie at or under the bucket
// bound above the client's median and slowest time (the estimate stays inside the
// bucket that holds the true quantile), and above 0.
func requestDurations(t *testing.T, api string, ds []Dashboard, values map[string]string, at time.Time, took map[string][]float64) {
	for i, q := range []float64{0.5, 0.99} {
		got := vector(t, api, Substitute(panelExpr(t, ds, "Request duration p50 / p99 by route", i), values), at, "route")
		for route, times := range took {
			slices.Sort(times)
			client := times[int(math.Ceil(q*float64(len(times))))-1]
			bound := math.Inf(1)
			for _, b := range requestBuckets {
				if b >= client {
					bound = b
					break
				}
			}
			t.Logf("%s: panel's q%.2f %.3g s, the client's %.3g s (bucket bound %g)", route, q, got[route], client, bound)
			assert.True(t, got[route] > 0 && got[route] <= bound, "%s's q%.2f: %.3g s, within (0, %g]", route, q, got[route], bound)
		}
	}
	verify(t, ds, "Request duration p50 / p99 by route")
}

// blocksTraced: the workers export each block they play as a trace (package tracing)
// under the service "arena worker", and a finished block's trace holds a record span
// for each of its games in the database and a game span for each game played. A
// worker commits a block's games in the background while the job's next block plays
// (queue's records), so a trace can come before its block's games are in the
// database: each block's are waited for (the workers are still playing).
func (f *fleetRun) blocksTraced(t *testing.T, conn *pgx.Conn) {
	var traces map[string]otlptest.Trace
	waitFor(t, time.Minute, func() bool { traces = f.traces.Traces(); return len(traces) >= 2 }, "two blocks' traces from the workers")
	for _, tr := range traces {
		b := tr.Block
		block := b.Attr("arena.block").GetIntValue()
		assert.Equal(t, "arena worker", b.Service)
		assert.Equal(t, f.game, b.Attr("arena.game").GetStringValue())
		var games int
		waitFor(t, time.Minute, func() bool {
			require.NoError(t, conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM matches WHERE block_id = $1`, block).Scan(&games))
			return games > 0
		}, fmt.Sprintf("block %d's games in the database", block))
		assert.Len(t, tr.Named("record"), games, "block %d: a record span per game recorded", block)
		assert.Len(t, tr.Named("game"), games, "block %d: a game span per game played", block)
		assert.Len(t, tr.Named("schedule"), 1)
	}
	t.Logf("%d blocks traced by the workers, each with its games", len(traces))
}

// gamesPerMinute: while both workers play, the games-recorded-per-minute panel over the
// last 20 s equals the games the database recorded in them. The coordinator reads the
// count at most a second before a scrape and the window's ends fall up to a scrape
// (1 s) from the samples rate() extrapolates from: up to 2 s of games at each end, in
// 20 s, so 25% covers it.
func (f *fleetRun) gamesPerMinute(t *testing.T, api string, ds []Dashboard, conn *pgx.Conn) {
	const window = 20 * time.Second
	var at time.Time
	waitFor(t, time.Minute, func() bool {
		at = time.Now()
		n, err := query(api, `count_over_time(arena_ladder_games_total{ladder="`+f.name+`"}[20s]) >= 15`, at)
		return err == nil && n == 1
	}, "20 s of the fleet's game count")
	values := map[string]string{"job": ".*", "instance": ".*", "ladder": f.name, "game": ".*", "__rate_interval": "20s"}
	got := scalar(t, api, Substitute(panelExpr(t, ds, "Games recorded per minute", 0), values), at) * window.Minutes()
	var want int
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT COUNT(*) FROM matches WHERE recorded > $1 AND recorded <= $2`,
		at.Add(-window), at).Scan(&want))
	t.Logf("games recorded in the 20 s before %s: panel %.1f, database %d", at.Format(time.TimeOnly), got, want)
	assert.InEpsilon(t, float64(want), got, 0.25, "games recorded per minute, over 20 s")
	verify(t, ds, "Games recorded per minute")
}
