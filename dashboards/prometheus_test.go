package dashboards

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestDashboardsAgainstARealPrometheus runs a real match, a real match with a bot that
// crash-loops, one that disqualifies it, two real SQLite ladders of two games with the
// same bots under the one arena-ladder job (each restarted once, so that its database
// holds more than the serving process played), and a third ladder shared through a
// real PostgreSQL (a coordinator that serves the web pages, and two real workers), all
// with --metrics-addr. Two real Prometheus servers (Debian's package) scrape them all
// on loopback with the shipped alerting rules, one storing histograms as classic
// buckets, the other native histograms (where the classic buckets of a native
// histogram are not stored). The test checks:
//   - every query of every dashboard panel and variable parses and returns data on both
//     servers, with every variable at "All" (three ladders sharing bot names in every
//     join);
//   - every panel's value against a truth the test knows by other means, per ladder
//     where the panel is per ladder: each ladder's database (standings, rows), the
//     runs' reports and replays, the files on disk, the processes' own state and
//     configuration; valueChecks (coverage_test.go) names the check of each panel, and
//     the test fails for a panel whose check did not run;
//   - the crash-loop alert goes pending for the crashing bot.
//
// .ci/run installs Prometheus and PostgreSQL and sets ARENA_REQUIRE_PROMETHEUS=1 and
// ARENA_REQUIRE_POSTGRES=1, so that a missing one fails there instead of skipping.
func TestDashboardsAgainstARealPrometheus(t *testing.T) {
	promBin := requireTool(t, "prometheus")
	fleet := newFleet(t, pgtest.URL(t))
	setup := time.Now()
	dir := t.TempDir()
	arenaBin, crashBin := filepath.Join(dir, "arena"), filepath.Join(dir, "crashbot")
	for bin, pkg := range map[string]string{arenaBin: "../cmd/arena", crashBin: "./testdata/crashbot"} {
		out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	matchAddr, crashAddr, dqAddr := testkit.FreeAddr(t), testkit.FreeAddr(t), testkit.FreeAddr(t)
	ladders := []*ladderRun{{name: "club", game: "ivanhoe", addr: testkit.FreeAddr(t)}, {name: "kk", game: "ninjas", addr: testkit.FreeAddr(t)}}
	scrapes := fmt.Sprintf(`
  - job_name: arena-match
    static_configs:
      - targets: [%q, %q, %q]
  - job_name: arena-ladder
    static_configs:
      - targets: [%q, %q, %q]
`, matchAddr, crashAddr, dqAddr, ladders[0].addr, ladders[1].addr, fleet.addr) + fleet.workerScrapes()
	api, promLog := startPrometheus(t, promBin, filepath.Join(dir, "classic"), scrapes)
	native, _ := startPrometheus(t, promBin, filepath.Join(dir, "native"), scrapes, "--enable-feature=native-histograms")

	// Two ladders of the same two built-in bots, each with a first run's games in its
	// database, then a second run serving metrics beside the matches. Every process
	// lingers after its run until the test interrupts it, so that its final series stay
	// live for the checks however long a loaded machine takes.
	for _, l := range ladders {
		l.db = filepath.Join(dir, l.name+".db")
		for _, args := range [][]string{{"bot", "add", "random"}, {"bot", "add", "heuristic"},
			{"ladder", "run", "--game", l.game, "--matches", "6"}} {
			out, err := exec.Command(arenaBin, append(args, "--db", l.db)...).CombinedOutput()
			require.NoError(t, err, "%s", out)
		}
		l.proc = start(t, dir, arenaBin, "ladder", "run", "--game", l.game, "--for", "10s", "--db", l.db, "--refresh", "1s",
			"--metrics-addr", l.addr, "--metrics-linger", "10m")
	}
	fleet.start(t, dir, arenaBin)
	crashStart := time.Now()
	crash := start(t, dir, arenaBin, "match", crashBin, "random", "--games", strconv.Itoa(crashGames), "-j", "1", "--sprt", "0,5", "--json",
		"--no-replays", "--max-restarts", "100000", "--max-forfeit-share", "0", "--metrics-addr", crashAddr, "--metrics-linger", "10m")
	// A run that disqualifies the crashing bot at its third forfeit.
	dq := start(t, dir, arenaBin, "match", crashBin, "random", "--games", "200", "-j", "1", "--no-replays", "--max-restarts", "100000",
		"--max-forfeit-share", "0.01", "--metrics-addr", dqAddr, "--metrics-linger", "10m")
	t.Logf("setup took %s", time.Since(setup).Round(time.Millisecond))
	ds, err := Load()
	require.NoError(t, err)

	// The crash-loop alert looks 5 minutes back: check it as soon as the bot has crashed.
	crashLoopAlertGoesPending(t, api)
	crashAt := crashingBotForfeitShare(t, api, ds, crash, crashAddr)
	t.Logf("crashing run checked after %s", time.Since(setup).Round(time.Millisecond))
	fleet.check(t, api, ds)
	t.Logf("fleet checked after %s", time.Since(setup).Round(time.Millisecond))

	// A run long enough for several scrapes.
	// Its replays give each seat's time (the time bank's truth).
	matchReplays := filepath.Join(dir, "match-replays")
	match := start(t, dir, arenaBin, "match", "heuristic", "random", "--games", "4000", "-j", "2", "--replays", matchReplays, "--json",
		"--metrics-addr", matchAddr, "--metrics-linger", "10m")
	inst := fmt.Sprintf(`instance=%q`, matchAddr)
	runEnd, end := afterTheRun(t, api, match, inst)
	t.Logf("the match ended after %s", time.Since(setup).Round(time.Millisecond))
	// Prometheus hands a new target to its scrapers only after a few seconds, so make
	// sure the run itself, not just its linger, was scraped several times.
	n, err := query(api, `count_over_time(arena_decisions_total{bot="random", `+inst+`}[1m]) > 3`, runEnd)
	require.NoError(t, err)
	require.Equal(t, 1, n, "too few scrapes during the run; prometheus said: %s", promLog.String())
	afterTheRun(t, api, dq, fmt.Sprintf(`instance=%q`, dqAddr))

	everyQueryReturnsData(t, api, ds, end, time.Since(setup))
	_, nativeEnd := afterTheRun(t, native, match, inst)
	everyQueryReturnsData(t, native, ds, nativeEnd, time.Since(setup))
	ladderPanelsPerLadder(t, api, ds, ladders, &fleet.ladderRun, arenaBin)
	ladderHealthPanels(t, api, ds, append(ladders[:len(ladders):len(ladders)], &fleet.ladderRun), time.Since(setup))

	// Every run but the shared ladder's has ended and lingers; the workers are frozen.
	at, window := time.Now(), time.Since(setup)
	rep, crashRep := reportOf(t, match), reportOf(t, crash)
	require.Greater(t, rep.ElapsedS, 8.0, "the run must span several scrapes")
	decisions := 0
	for _, b := range rep.Bots {
		decisions += b.Decisions
	}
	panelValueChecks(t, api, ds, rep.Games, decisions, rep.ElapsedS, inst, runEnd)
	matchRunPanels(t, api, ds, rep, matchAddr, matchReplays, runEnd, end)
	latencyFromEitherHistogram(t, api, native, ds, matchAddr, rep, nativeEnd, time.Since(setup))
	crashRunPanels(t, api, ds, crashRep, crashAddr, crashAt, crashAt.Sub(crashStart)+2*time.Second)
	crashStop := "done"
	if crashRep.SPRT.Verdict != "continue" {
		crashStop = "sprt"
	}
	stops := map[string]float64{"arena-ladder done": 2, "arena-match disqualified": 1, "arena-match done": 1}
	stops["arena-match "+crashStop]++
	targets := map[string]scraped{matchAddr: {"arena-match", "match", true}, crashAddr: {"arena-match", "match", true}, dqAddr: {"arena-match", "match", true},
		ladders[0].addr: {"arena-ladder", "ladder", true}, ladders[1].addr: {"arena-ladder", "ladder", true}, fleet.addr: {"arena-ladder", "ladder", true},
		fleet.addrs[0]: {job: "arena-worker"}, fleet.addrs[1]: {job: "arena-worker"}}
	processPanels(t, api, ds, at, targets, stops, rep, window)
	for _, l := range ladders {
		require.NoError(t, l.proc.cmd.Process.Signal(os.Interrupt))
		require.NoError(t, l.proc.cmd.Wait(), l.proc.stderr.String())
	}
	everyPanelVerified(t, ds)
}

// startPrometheus runs Prometheus in dir with the shipped rules and the flags given,
// scraping every second the scrape configs given (YAML list items), and returns its
// API's URL and its log.
func startPrometheus(t *testing.T, promBin, dir, scrapes string, flags ...string) (api string, log *testkit.SyncBuffer) {
	return startPrometheusEvery(t, promBin, dir, "1s", scrapes, flags...)
}

// startPrometheusEvery is startPrometheus scraping every interval (which is also the
// scrape's timeout); rules are evaluated every second.
func startPrometheusEvery(t *testing.T, promBin, dir, interval, scrapes string, flags ...string) (api string, log *testkit.SyncBuffer) {
	rules, err := filepath.Abs("alerts.yml")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	promAddr := testkit.FreeAddr(t)
	cfg := fmt.Sprintf("global:\n  scrape_interval: %s\n  evaluation_interval: 1s\nrule_files: [%q]\nscrape_configs:%s", interval, rules, scrapes)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o644))
	prom := exec.Command(promBin, append([]string{"--config.file=" + filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path=" + filepath.Join(dir, "tsdb"), "--web.listen-address=" + promAddr}, flags...)...)
	prom.Dir = dir
	log = &testkit.SyncBuffer{}
	prom.Stdout, prom.Stderr = log, log
	require.NoError(t, prom.Start())
	t.Cleanup(func() { _ = prom.Process.Kill(); _ = prom.Wait() })
	api = "http://" + promAddr
	waitFor(t, 30*time.Second, func() bool { return get(api+"/-/ready") == nil }, "prometheus ready: "+log.String())
	return api, log
}

// panelValueChecks: the throughput panels' matches and decisions per second, taken
// over a window that is the run's span, agree with the report's games and decisions
// over its elapsed time within 20%. The margin: with 1 s scrapes the first and last
// samples of a run of at least 8 s can each be up to a scrape from its ends, and
// rate() extrapolates across at most that (2 s in 10).
func panelValueChecks(t *testing.T, api string, ds []Dashboard, games, decisions int, elapsed float64, inst string, end time.Time) {
	window := fmt.Sprintf("%ds", int(math.Round(elapsed)))
	for _, c := range []struct {
		title string
		n     int
	}{{"Matches finished per second", games}, {"Decisions per second", decisions}} {
		expr := strings.Replace(panelExpr(t, ds, c.title, 0), `{job=~"$job", instance=~"$instance"`, `{`+inst, 1)
		got := scalar(t, api, Substitute(expr, map[string]string{"game": "ivanhoe", "__rate_interval": window}), end)
		want := float64(c.n) / elapsed
		t.Logf("%s over the run: panel %.1f, true %.1f", c.title, got, want)
		assert.InEpsilon(t, want, got, 0.20, "%s over the run: panel %.1f, true %.1f", c.title, got, want)
		verify(t, ds, c.title)
	}
}

// everyQueryReturnsData substitutes windows as long as the test so far, so that a run
// that ended minutes ago on a loaded machine still has its increases in them.
func everyQueryReturnsData(t *testing.T, api string, ds []Dashboard, end time.Time, span time.Duration) {
	window := fmt.Sprintf("%ds", int(span.Seconds())+1)
	values := map[string]string{"game": ".*", "bot": ".*", "job": ".*", "instance": ".*", "ladder": ".*", "host": ".*", "route": ".*",
		"__rate_interval": window, "__interval": "10s", "__range": window}
	for _, d := range ds {
		for _, v := range d.Templating.List {
			if v.Type == "datasource" {
				continue
			}
			q := strings.TrimSuffix(strings.TrimPrefix(Substitute(v.Definition, values), "label_values("), ")")
			i := strings.LastIndex(q, ", ")
			require.Positive(t, i, "variable %s: label_values(selector, label)", v.Name)
			labels := labelValues(t, api, q[:i], q[i+2:], end)
			assert.NotEmpty(t, labels, "%s: variable %s has no values", d.File, v.Name)
		}
		for _, p := range d.Panels {
			for _, tg := range p.Targets {
				expr := Substitute(tg.Expr, values)
				n, err := query(api, expr, end)
				require.NoError(t, err, "%s panel %d (%s): %s", d.File, p.ID, p.Title, expr)
				assert.Greater(t, n, 0, "%s panel %d (%s) returns no data: %s", d.File, p.ID, p.Title, expr)
			}
		}
	}
}

// crashLoopAlertGoesPending: the shipped rule, evaluated every second, turns pending
// for the bot that exits at its 30th decision (its for: of 2 minutes keeps it from
// firing within the test).
func crashLoopAlertGoesPending(t *testing.T, api string) {
	waitFor(t, 5*time.Minute, func() bool { // a loaded machine starts bots slowly
		r, err := call(api + "/api/v1/alerts")
		if err != nil {
			return false
		}
		var data struct {
			Alerts []struct {
				Labels map[string]string `json:"labels"`
				State  string            `json:"state"`
			} `json:"alerts"`
		}
		if json.Unmarshal(r.Data, &data) != nil {
			return false
		}
		for _, a := range data.Alerts {
			if a.Labels["alertname"] == "ArenaBotCrashLooping" && a.Labels["bot"] == "crashbot" && a.State == "pending" {
				return true
			}
		}
		return false
	}, "ArenaBotCrashLooping pending for crashbot")
}

// crashGames is the length of the crashing bot's run: enough for dozens of crashes
// (one every 30 of its decisions), short enough for a loaded machine.
const crashGames = 60

// crashingBotForfeitShare: once the crashing bot's run has ended (and been scraped
// after its end), the share-of-seats-forfeited panel over the run equals the share in
// its progress lines (one per match, with each seat's ending) within 0.02: numerator
// and denominator are extrapolated alike; and the crashes-per-100-decisions panel is
// the bot's own rate.
func crashingBotForfeitShare(t *testing.T, api string, ds []Dashboard, crash *proc, addr string) time.Time {
	inst := fmt.Sprintf(`instance=%q`, addr)
	_, at := afterTheRun(t, api, crash, inst)
	seats, forfeits := 0, 0
	progress := regexp.MustCompile(`^\d+/\d+ d\d+-r\d+: `)
	for _, line := range strings.Split(crash.stderr.String(), "\n") {
		if !progress.MatchString(line) {
			continue
		}
		for _, seat := range strings.Split(line[strings.Index(line, ": ")+2:], ", ") {
			if strings.HasPrefix(seat, "crashbot ") {
				seats++
				if strings.HasSuffix(seat, ")") {
					forfeits++
				}
			}
		}
	}
	require.Equal(t, crashGames, seats, "one progress line per match: %s", crash.stderr.String())
	require.Greater(t, forfeits, 3, "the bot crashed in several matches")
	expr := strings.ReplaceAll(panelExpr(t, ds, "Share of seats forfeited", 0), `job=~"$job", instance=~"$instance"`, inst)
	got := scalar(t, api, Substitute(expr, map[string]string{"bot": "crashbot", "__rate_interval": "5m"}), at)
	want := float64(forfeits) / float64(seats)
	// Seats that ended before Prometheus's first scrape of the run are in the first
	// sample of each ending's series, and rate() cannot tell how they split between the
	// endings (each series is extrapolated on its own): each of them may move the share
	// by up to 1/seats. Counters only grow, so the least value is the first sample.
	early := scalar(t, api, fmt.Sprintf(`sum(min_over_time(arena_seat_endings_total{%s, bot="crashbot"}[30m]))`, inst), at)
	tol := 0.02 + early/float64(seats)
	t.Logf("crashbot's forfeited share: panel %.4f, progress lines %d/%d = %.4f (%.0f seats before the first scrape: tolerance %.3f)",
		got, forfeits, seats, want, early, tol)
	assert.InDelta(t, want, got, tol, "share of crashbot's seats forfeited: panel %.3f, true %d/%d", got, forfeits, seats)
	verify(t, ds, "Share of seats forfeited")
	// crashbot has one seat in each match, so the share of matches not complete is
	// its share of seats forfeited, as near as the matches before the first scrape let
	// rate() see it.
	expr = strings.ReplaceAll(panelExpr(t, ds, "Share of matches not complete", 0), `job=~"$job", instance=~"$instance"`, inst)
	notComplete := scalar(t, api, Substitute(expr, map[string]string{"game": ".*", "__rate_interval": "5m"}), at)
	earlyMatches := scalar(t, api, fmt.Sprintf(`sum(min_over_time(arena_matches_finished_total{%s}[30m]))`, inst), at)
	t.Logf("crashbot's run's share of matches not complete: panel %.4f, %d/%d (%.0f matches before the first scrape)", notComplete, forfeits, seats, earlyMatches)
	assert.InDelta(t, want, notComplete, 0.02+earlyMatches/float64(seats), "share of matches not complete")
	verify(t, ds, "Share of matches not complete")
	// Each of its processes crashes at its 30th decision: 100/30 crashes per 100
	// decisions. The processes alive at the end (one per seat, two) have made up to 29
	// decisions each without crashing, of well over a thousand: 15% covers them.
	expr = strings.ReplaceAll(panelExpr(t, ds, "Crashes per 100 decisions", 0), `job=~"$job", instance=~"$instance"`, inst)
	perHundred := scalar(t, api, Substitute(expr, map[string]string{"bot": "crashbot", "__rate_interval": "5m"}), at)
	t.Logf("crashbot's crashes per 100 decisions: panel %.3f, by construction %.3f", perHundred, 100.0/30)
	assert.InEpsilon(t, 100.0/30, perHundred, 0.15, "crashes per 100 decisions")
	verify(t, ds, "Crashes per 100 decisions")
	return at
}

// ladderRun is one of the test's ladders: its name, game, database, metrics address
// and serving process.
type ladderRun struct {
	name, game, db, addr string
	proc                 *proc
}

// ladderPanelsPerLadder: once both serving SQLite ladder runs have ended (and the
// shared ladder's workers are frozen), the ladder panels equal each ladder's standings
// (every run's games, from the database), bot by bot and ladder by ladder though the
// bots share their names: games, score rate, live and official Elo, active and
// suspended bots, and the last refit's outcome. The panels that used to take the max
// over ladders show one value for each ladder.
func ladderPanelsPerLadder(t *testing.T, api string, ds []Dashboard, batches []*ladderRun, shared *ladderRun, arenaBin string) {
	for _, l := range batches {
		afterTheRun(t, api, l.proc, fmt.Sprintf(`instance=%q`, l.addr))
	}
	ladders := append(batches[:len(batches):len(batches)], shared)
	want := standingsPanels(t, ladders, arenaBin)
	tolerance := func(title, key string) float64 {
		if title == "Live Elo" && strings.HasPrefix(key, shared.name+" ") {
			return liveOrderTolerance
		}
		return 1e-6
	}
	for _, l := range batches {
		recorded := 0
		for key, g := range want["Games per bot"] {
			if strings.HasPrefix(key, l.name+" ") {
				recorded += int(g)
			}
		}
		assert.Greater(t, recorded, 12, "%s: the first run's 6 games each and the second run's", l.name)
	}
	// The Elo panels show the last refit, every second: they follow the last games
	// within a few.
	var got map[string]map[string]float64
	var at time.Time
	agree := func() bool {
		at = time.Now()
		got = map[string]map[string]float64{}
		for title := range want {
			got[title] = map[string]float64{}
			for _, s := range samples(t, api, Substitute(panelExpr(t, ds, title, 0), map[string]string{"job": ".*", "instance": ".*", "ladder": ".*", "game": ".*", "bot": ".*"}), at) {
				key := s.Metric["ladder"] + " " + s.Metric["game"]
				if b := s.Metric["bot"]; b != "" {
					key += " " + b
				}
				got[title][key] = s.value(t)
			}
		}
		return mapsClose(want, got, tolerance)
	}
	if !pollUntil(time.Minute, agree) {
		for title := range want {
			for key, v := range want[title] {
				g, ok := got[title][key]
				assert.True(t, ok && math.Abs(g-v) <= tolerance(title, key), "%s, %s: panel %v (shown: %v), standings %v", title, key, g, ok, v)
			}
			assert.Len(t, got[title], len(want[title]), "%s: the panel's series", title)
		}
	}
	n := 0
	for _, w := range want {
		n += len(w)
	}
	t.Logf("%d panels agree with the standings of %d ladders in %d values", len(want), len(ladders), n)
	for _, title := range []string{"Since the last game", "Active bots", "Refit age", "Last refit", "Official Elo with 95% interval: $bot"} {
		var seen []string
		for _, s := range samples(t, api, Substitute(panelExpr(t, ds, title, 0), map[string]string{"job": ".*", "instance": ".*", "ladder": ".*", "game": ".*", "bot": "heuristic"}), at) {
			seen = append(seen, s.Metric["ladder"]+" "+s.Metric["game"])
		}
		assert.ElementsMatch(t, []string{"club ivanhoe", "kk ninjas", "fleet ivanhoe"}, seen, "%s: one value per ladder", title)
	}
	for title := range want {
		verify(t, ds, title)
	}
}

// standingsPanels is what the ladder panels should show, from each ladder's standings:
// panel title to "ladder game bot" (or "ladder game") to value. No bot is retired in
// the test, so the bots that do not play are the suspended ones (none).
func standingsPanels(t *testing.T, ladders []*ladderRun, arenaBin string) map[string]map[string]float64 {
	want := map[string]map[string]float64{}
	set := func(title, key string, v float64) {
		if want[title] == nil {
			want[title] = map[string]float64{}
		}
		want[title][key] = v
	}
	for _, l := range ladders {
		active, all := 0, 0
		for _, s := range testkit.Standings(t, arenaBin, l.game, l.db) {
			key := l.name + " " + l.game + " " + s.Bot
			set("Games per bot", key, float64(s.Games))
			set("Score rate", key, s.Score)
			set("Live Elo", key, s.LiveElo)
			set("Official Elo with 95% interval: $bot", key, s.Elo)
			all++
			if s.Active {
				active++
			}
		}
		key := l.name + " " + l.game
		set("Active bots", key, float64(active))
		set("Suspended bots", key, float64(all-active))
		set("Last refit", key, 0)
	}
	return want
}

// liveOrderTolerance is how far the shared ladder's live Elo may be from a fresh
// read's. Its two workers record at once, so a game can commit after a later one; the
// coordinator's live Elo counts it when it arrives, a fresh read in ID order (package
// tally). Two games of the same two bots counted in swapped order end at most
// K·2K·ln10/1600 = 1.66 Elo apart at K = 24: a game moves the bots' difference by at
// most 2K, and the expected score moves by at most ln10/1600 per Elo of difference.
// Every later game between them shrinks the gap.
const liveOrderTolerance = 2.0

// mapsClose: got has want's keys with values within tolerance(title, key).
func mapsClose(want, got map[string]map[string]float64, tolerance func(title, key string) float64) bool {
	for title, w := range want {
		if len(got[title]) != len(w) {
			return false
		}
		for k, v := range w {
			g, ok := got[title][k]
			if !ok || math.Abs(g-v) > tolerance(title, k) {
				return false
			}
		}
	}
	return true
}

// pollUntil polls ok every 200 ms until it holds or limit has passed (internal/poll's
// 10 ms would send Prometheus a query burst every 10 ms).
func pollUntil(limit time.Duration, ok func() bool) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}

// afterTheRun waits until p's run has ended (it says it lingers) and Prometheus has
// scraped it since (its stop reason is counted). It returns when the run ended, as
// near as the test saw, and a time at which its final series are scraped.
func afterTheRun(t *testing.T, api string, p *proc, inst string) (ended, scraped time.Time) {
	waitFor(t, 10*time.Minute, func() bool { return strings.Contains(p.stderr.String(), "serving metrics on") }, "the run's end", p)
	ended = time.Now()
	waitFor(t, time.Minute, func() bool {
		scraped = time.Now()
		n, err := query(api, `sum(arena_runs_stopped_total{`+inst+`}) > 0`, scraped)
		return err == nil && n == 1
	}, "a scrape after the run")
	return ended, scraped
}

// panelExpr is query i of the panel titled title.
func panelExpr(t *testing.T, ds []Dashboard, title string, i int) string {
	for _, d := range ds {
		for _, p := range d.Panels {
			if p.Title == title {
				return p.Targets[i].Expr
			}
		}
	}
	t.Fatalf("no panel %q", title)
	return ""
}

// proc is a background arena command with its output.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr *testkit.SyncBuffer
}

func start(t *testing.T, dir string, bin string, args ...string) *proc {
	return startWith(t, nil, dir, bin, args...)
}

// startWith is start with env added to the test's environment.
func startWith(t *testing.T, env []string, dir string, bin string, args ...string) *proc {
	p := &proc{cmd: exec.Command(bin, args...), stdout: &testkit.SyncBuffer{}, stderr: &testkit.SyncBuffer{}}
	p.cmd.Dir = dir
	if env != nil {
		p.cmd.Env = append(os.Environ(), env...)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	return p
}

func get(u string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: %s", u, resp.Status)
	}
	return nil
}

func waitFor(t *testing.T, limit time.Duration, ok func() bool, what string, logs ...*proc) {
	t.Helper()
	if !pollUntil(limit, ok) {
		var b strings.Builder
		for _, p := range logs { // as they are at the timeout, not at the call
			fmt.Fprintf(&b, "\n%s's log:\n%s", strings.Join(p.cmd.Args, " "), p.stderr)
		}
		t.Fatalf("timed out waiting for %s%s", what, b.String())
	}
}

type apiReply struct {
	Status string `json:"status"`
	Error  string `json:"error"`
	Data   json.RawMessage
}

func call(u string) (apiReply, error) {
	var r apiReply
	resp, err := http.Get(u)
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %s", resp.Status, b)
	}
	if r.Status != "success" {
		return r, fmt.Errorf("%s", r.Error)
	}
	return r, nil
}

type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

func instant(api, expr string, at time.Time) ([]sample, error) {
	r, err := call(api + "/api/v1/query?query=" + url.QueryEscape(expr) + "&time=" + strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64))
	if err != nil {
		return nil, err
	}
	var data struct {
		Result []sample `json:"result"`
	}
	err = json.Unmarshal(r.Data, &data)
	return data.Result, err
}

// samples runs an instant query that must succeed.
func samples(t *testing.T, api, expr string, at time.Time) []sample {
	res, err := instant(api, expr, at)
	require.NoError(t, err, expr)
	return res
}

func (s sample) value(t *testing.T) float64 {
	v, err := strconv.ParseFloat(s.Value[1].(string), 64)
	require.NoError(t, err)
	return v
}

// query runs an instant query and returns the number of series with a number in it.
func query(api, expr string, at time.Time) (int, error) {
	res, err := instant(api, expr, at)
	n := 0
	for _, s := range res {
		if v, ok := s.Value[1].(string); ok && v != "NaN" {
			n++
		}
	}
	return n, err
}

// vector runs an instant query and returns its values by the given label.
func vector(t *testing.T, api, expr string, at time.Time, label string) map[string]float64 {
	res, err := instant(api, expr, at)
	require.NoError(t, err, expr)
	out := map[string]float64{}
	for _, s := range res {
		v, err := strconv.ParseFloat(s.Value[1].(string), 64)
		require.NoError(t, err)
		out[s.Metric[label]] = v
	}
	return out
}

// scalar runs an instant query that must give one series, and returns its value.
func scalar(t *testing.T, api, expr string, at time.Time) float64 {
	res, err := instant(api, expr, at)
	require.NoError(t, err, expr)
	require.Len(t, res, 1, "one series from %s", expr)
	v, err := strconv.ParseFloat(res[0].Value[1].(string), 64)
	require.NoError(t, err)
	return v
}

func labelValues(t *testing.T, api, selector, label string, at time.Time) []string {
	r, err := call(fmt.Sprintf("%s/api/v1/label/%s/values?match[]=%s&start=%d&end=%d", api, label,
		url.QueryEscape(selector), at.Add(-time.Minute).Unix(), at.Add(time.Minute).Unix()))
	require.NoError(t, err, "label_values(%s, %s)", selector, label)
	var vals []string
	require.NoError(t, json.Unmarshal(r.Data, &vals))
	return vals
}
