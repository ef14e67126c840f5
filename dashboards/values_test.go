package dashboards

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	_ "github.com/arena-games/arena/games" // the match's replays are read in their game
)

// matchReport is the part of `arena match --json` the checks read.
type matchReport struct {
	Games     int     `json:"games"`
	ElapsedS  float64 `json:"elapsed_s"`
	StoppedBy string  `json:"stopped_by"`
	Sandbox   struct {
		Active  []string          `json:"active"`
		Missing map[string]string `json:"missing"`
	} `json:"sandbox"`
	Bots []struct {
		Name      string         `json:"name"`
		Games     int            `json:"games"`
		Decisions int            `json:"decisions"`
		Endings   map[string]int `json:"endings"`
		Restarts  int            `json:"restarts"`
		MeanMs    float64        `json:"mean_latency_ms"`
		P50Ms     float64        `json:"p50_latency_ms"`
		P99Ms     float64        `json:"p99_latency_ms"`
		MaxMs     float64        `json:"max_latency_ms"`
	} `json:"bots"`
	Matches []struct {
		Decisions int `json:"decisions"`
		Seats     []struct {
			Bot    string `json:"bot"`
			Ending string `json:"ending"`
		} `json:"seats"`
	} `json:"matches"`
	SPRT *struct {
		LLR     float64 `json:"llr"`
		Lower   float64 `json:"lower_bound"`
		Upper   float64 `json:"upper_bound"`
		Verdict string  `json:"verdict"`
	} `json:"sprt"`
}

// forfeits is the bot's seats that did not end ok.
func (r matchReport) forfeits(bot string) int {
	n := 0
	for _, b := range r.Bots {
		if b.Name == bot {
			for e, k := range b.Endings {
				if e != "ok" {
					n += k
				}
			}
		}
	}
	return n
}

// reportOf ends p's linger (its run is over) and reads the report it prints.
func reportOf(t *testing.T, p *proc) matchReport {
	require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
	require.NoError(t, p.cmd.Wait(), p.stderr.String())
	var rep matchReport
	require.NoError(t, json.Unmarshal(p.stdout.Bytes(), &rep))
	return rep
}

// vars are the dashboard variables at "All", with those given (name, value...) set.
func vars(kv ...string) map[string]string {
	m := map[string]string{"job": ".*", "instance": ".*", "ladder": ".*", "game": ".*", "bot": ".*", "host": ".*", "route": ".*"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// panelQuery is query i of the panel titled title with the variables given.
func panelQuery(t *testing.T, ds []Dashboard, title string, i int, values map[string]string) string {
	return Substitute(panelExpr(t, ds, title, i), values)
}

// seconds is a PromQL duration of d, rounded up to the second.
func seconds(d time.Duration) string { return fmt.Sprintf("%ds", int(math.Ceil(d.Seconds()))) }

// matchRunPanels checks the panels of the long match (heuristic against random,
// -j 2, its report rep) that panelValueChecks does not: matches in flight (two while
// it played, none after), the match duration's quantiles, matches by outcome, live
// bot processes and the time bank's p99 (against the run's replays, in the folder
// replays). ran is when the test saw the run end, after
// when Prometheus had scraped it since.
func matchRunPanels(t *testing.T, api string, ds []Dashboard, rep matchReport, addr, replays string, ran, after time.Time) {
	elapsed := time.Duration(rep.ElapsedS * float64(time.Second))
	span := seconds(elapsed)
	v := vars("instance", addr, "game", "ivanhoe", "__rate_interval", span)
	inFlight := panelQuery(t, ds, "Matches in flight", 0, v)
	assert.Equal(t, 2.0, scalar(t, api, fmt.Sprintf("max_over_time((%s)[%s:1s])", inFlight, span), ran), "-j 2: two matches in flight while the run played")
	assert.Equal(t, 0.0, scalar(t, api, inFlight, after), "no match in flight after the run")
	verify(t, ds, "Matches in flight")

	live := panelQuery(t, ds, "Live bot processes", 0, v)
	// -j 2: two matches at once, each with a process of each bot; the pool keeps a
	// process per bot and seat for each match played at once, so at most 2 x 2.
	for bot, peak := range vector(t, api, fmt.Sprintf("max_over_time((%s)[%s:1s])", live, span), ran, "bot") {
		assert.True(t, peak >= 2 && peak <= 4, "%s: %v processes at the most while the run played: 2 to 4", bot, peak)
	}
	assert.Equal(t, map[string]float64{"heuristic": 0, "random": 0}, vector(t, api, live, after, "bot"), "no bot process after the run")
	verify(t, ds, "Live bot processes")

	outcomes(t, api, ds, rep, v, ran)
	seats, matches := replayTimes(t, replays)
	require.Len(t, matches, rep.Games, "a replay per match")
	matchDuration(t, api, ds, rep, matches, v, ran)
	bankUsed(t, api, ds, seats, v, ran)
}

// outcomes: over the run, the complete matches per minute are the report's matches
// with no forfeited seat (within the 20% panelValueChecks explains), and the forfeit
// and aborted outcomes are the report's (none aborted: the run finished).
func outcomes(t *testing.T, api string, ds []Dashboard, rep matchReport, v map[string]string, at time.Time) {
	forfeited := 0
	for _, m := range rep.Matches {
		for _, s := range m.Seats {
			if s.Ending != "ok" {
				forfeited++
				break
			}
		}
	}
	require.Len(t, rep.Matches, rep.Games, "the report lists every match")
	perMin := vector(t, api, panelQuery(t, ds, "Matches per minute by outcome", 0, v), at, "outcome")
	minutes := rep.ElapsedS / 60
	t.Logf("matches by outcome over the run: panel %v per minute, report %d complete, %d forfeit", perMin, rep.Games-forfeited, forfeited)
	assert.InEpsilon(t, float64(rep.Games-forfeited), perMin["complete"]*minutes, 0.2, "complete matches")
	assert.Zero(t, perMin["aborted"], "no match aborted")
	if forfeited == 0 {
		assert.Zero(t, perMin["forfeit"], "no match forfeited")
	} else {
		assert.InDelta(t, float64(forfeited), perMin["forfeit"]*minutes, 0.2*float64(forfeited)+2, "forfeited matches")
	}
	verify(t, ds, "Matches per minute by outcome")
}

// replayTimes reads every replay under dir: each bot's time charged in each of its
// seats, and each match's decisions' time (the seats' together), in seconds.
func replayTimes(t *testing.T, dir string) (seats map[string][]float64, matches []float64) {
	seats = map[string][]float64{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		rep, err := arena.ReadReplay(f)
		require.NoError(t, err, path)
		spent, total := make([]float64, len(rep.Header.Bots)), 0.0
		for _, d := range rep.Decisions {
			spent[d.Seat] += float64(d.Micros) / 1e6
			total += float64(d.Micros) / 1e6
		}
		for i, bot := range rep.Header.Bots {
			seats[bot] = append(seats[bot], spent[i])
		}
		matches = append(matches, total)
		return nil
	}))
	require.NotEmpty(t, matches, "the run's replays")
	return seats, matches
}

// quantileOf is the q-quantile of xs (sorted in place): the least value at or above a
// share q of them.
func quantileOf(xs []float64, q float64) float64 {
	slices.Sort(xs)
	return xs[int(math.Ceil(q*float64(len(xs))))-1]
}

// bucketAround is the span of buckets (bounds sorted, from 0) an estimate may take when
// the true quantile lies in [lo, hi]: from the bound at or under lo to the bound at or
// over hi (the top bound if none).
func bucketAround(bounds []float64, lo, hi float64) (from, to float64) {
	from, to = 0, bounds[len(bounds)-1]
	for _, b := range bounds {
		if b <= lo {
			from = b
		}
	}
	for i := len(bounds) - 1; i >= 0; i-- {
		if bounds[i] >= hi {
			to = bounds[i]
		}
	}
	return from, to
}

// matchDuration: a match lasts at least its decisions' time (the replays'), and two
// matches at a time for the run's length bound the mean match by 2 x elapsed / games;
// the median is at most twice the mean, the 99th percentile at most 100 times it
// (Markov). The estimate lies in the bucket (a factor 2.5 apart) that holds the true
// quantile, so within the buckets around those bounds.
func matchDuration(t *testing.T, api string, ds []Dashboard, rep matchReport, matches []float64, v map[string]string, at time.Time) {
	bounds := append([]float64{0}, prometheus.ExponentialBuckets(0.001, 2.5, 14)...)
	mean := 2 * rep.ElapsedS / float64(rep.Games)
	for i, q := range []struct {
		q, markov float64
	}{{0.5, 2}, {0.99, 100}} {
		got := scalar(t, api, panelQuery(t, ds, "Match duration p50 / p99", i, v), at)
		from, to := bucketAround(bounds, quantileOf(matches, q.q), q.markov*mean)
		t.Logf("match duration q%.2f: panel %.4g s, decisions' time %.4g s, mean at most %.4g s: within [%g, %g]", q.q, got, quantileOf(matches, q.q), mean, from, to)
		assert.True(t, got >= from && got <= to, "match duration q%.2f %.4g s within [%g, %g]", q.q, got, from, to)
	}
	verify(t, ds, "Match duration p50 / p99")
}

// bankShares are the time bank histogram's bucket bounds.
var bankShares = []float64{0, 0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1}

// bankUsed: a seat's share of the bank is its decisions' time, as charged to its clock
// and written in the replay of each match, over the bank (the default clock's). Each
// bot's p99 over the run lies in the bucket that holds the replays' p99; the seats
// played before Prometheus's first scrape, which no rate sees, may move the quantile a
// little, so a bucket on either side is allowed within 10% of it.
func bankUsed(t *testing.T, api string, ds []Dashboard, seats map[string][]float64, v map[string]string, at time.Time) {
	bank := arena.DefaultClock().Bank.Seconds()
	p99 := vector(t, api, panelQuery(t, ds, "Time bank used p99", 0, v), at, "bot")
	for bot, spent := range seats {
		want := quantileOf(spent, 0.99) / bank
		lo, hi := bucketAround(bankShares, want*0.9, want*1.1)
		t.Logf("%s's p99 share of the bank: panel %.3g, the replays' %.3g of %d seats", bot, p99[bot], want, len(spent))
		assert.True(t, p99[bot] >= lo && p99[bot] <= hi, "%s: p99 share %.3g within [%g, %g]", bot, p99[bot], lo, hi)
	}
	verify(t, ds, "Time bank used p99")
}

// crashRunPanels checks the crashing bot's run (crashbot against random, its report
// rep) at a time after it, over a window as long as it: the SPRT's LLR and bounds are
// the report's, and its forfeits and restarts per minute over the run are the
// report's, less those before Prometheus's first scrape (which the first sample holds
// and no rate sees), within 10% and one for rate()'s extrapolation to the window's
// ends (up to half a scrape at each end of a run of many).
func crashRunPanels(t *testing.T, api string, ds []Dashboard, rep matchReport, addr string, at time.Time, window time.Duration) {
	inst := fmt.Sprintf("instance=%q", addr)
	v := vars("instance", addr, "bot", "crashbot", "__rate_interval", seconds(window))
	require.NotNil(t, rep.SPRT, "--sprt is in the report")
	llr := vector(t, api, panelQuery(t, ds, "SPRT progress", 0, v), at, "bot")
	assert.InDelta(t, rep.SPRT.LLR, llr["crashbot"], 1e-9, "the LLR is the report's")
	bounds := vector(t, api, panelQuery(t, ds, "SPRT progress", 1, v), at, "bound")
	assert.InDeltaMapValues(t, map[string]float64{"lower": rep.SPRT.Lower, "upper": rep.SPRT.Upper}, bounds, 1e-9, "the bounds are the report's")
	verify(t, ds, "SPRT progress")

	early := func(series string) float64 {
		return scalar(t, api, fmt.Sprintf(`sum(min_over_time(%s[30m]))`, strings.Replace(series, "{", "{"+inst+", ", 1)), at)
	}
	minutes := window.Minutes()
	forfeits := 0.0
	for _, s := range samples(t, api, panelQuery(t, ds, "Forfeits per minute, by kind", 0, v), at) {
		forfeits += s.value(t) * minutes
	}
	want := float64(rep.forfeits("crashbot")) - early(`arena_seat_endings_total{bot="crashbot", ending!="ok"}`)
	t.Logf("crashbot's forfeits over the run: panel %.1f, report %d less %.0f before the first scrape", forfeits, rep.forfeits("crashbot"), float64(rep.forfeits("crashbot"))-want)
	assert.InDelta(t, want, forfeits, 0.1*want+1, "crashbot's forfeits per minute")
	verify(t, ds, "Forfeits per minute, by kind")

	restarts := 0
	for _, b := range rep.Bots {
		if b.Name == "crashbot" {
			restarts = b.Restarts
		}
	}
	got := scalar(t, api, panelQuery(t, ds, "Process restarts per minute", 0, v), at) * minutes
	want = float64(restarts) - early(`arena_bot_process_restarts_total{bot="crashbot"}`)
	t.Logf("crashbot's restarts over the run: panel %.1f, report %d less those before the first scrape", got, restarts)
	require.Positive(t, restarts)
	assert.InDelta(t, want, got, 0.1*want+1, "crashbot's restarts per minute")
	verify(t, ds, "Process restarts per minute")
}

// scraped is what processPanels expects of one scraped process.
type scraped struct {
	job, mode string
	up        bool
}

// processPanels checks, at a time when every run but the shared ladder's has ended
// and its process lingers (the workers frozen), what the test knows of every process:
// each is up or down as it is, with its mode; the runs stopped are those the test ran,
// by reason; the disqualified bot is the one the dq run stopped for; and the sandbox
// layers are those the match's report names.
func processPanels(t *testing.T, api string, ds []Dashboard, at time.Time, targets map[string]scraped, stopped map[string]float64,
	rep matchReport, window time.Duration) {
	v := vars("__range", seconds(window))
	up := map[string]float64{}
	for _, s := range samples(t, api, panelQuery(t, ds, "Arena processes", 0, v), at) {
		up[s.Metric["instance"]] = s.value(t)
		assert.Equal(t, targets[s.Metric["instance"]].job, s.Metric["job"], "%s's job", s.Metric["instance"])
	}
	modes, want, wantModes := map[string]string{}, map[string]float64{}, map[string]string{}
	for _, s := range samples(t, api, panelQuery(t, ds, "Arena processes", 1, v), at) {
		modes[s.Metric["instance"]] = s.Metric["mode"]
	}
	for addr, tg := range targets {
		want[addr] = 0
		if tg.up {
			want[addr], wantModes[addr] = 1, tg.mode
		}
	}
	assert.Equal(t, want, up, "every target, up (1) or down (0): the frozen workers down")
	assert.Equal(t, wantModes, modes, "each live process's mode")
	verify(t, ds, "Arena processes")

	got := map[string]float64{}
	for _, s := range samples(t, api, panelQuery(t, ds, "Runs stopped, by reason", 0, v), at) {
		if n := s.value(t); n != 0 {
			got[s.Metric["job"]+" "+s.Metric["reason"]] = math.Round(n)
			assert.InDelta(t, math.Round(n), n, 0.25, "%s %s: a whole number of runs, as near as increase() extrapolates", s.Metric["job"], s.Metric["reason"])
		}
	}
	assert.Equal(t, stopped, got, "runs stopped by job and reason")
	verify(t, ds, "Runs stopped, by reason")

	dq := map[string]float64{}
	for bot, n := range vector(t, api, panelQuery(t, ds, "Disqualifications", 0, v), at, "bot") {
		dq[bot] = math.Round(n)
	}
	assert.Equal(t, map[string]float64{"crashbot": 1, "random": 0, "heuristic": 0}, dq, "the dq run disqualified crashbot, no run another bot")
	verify(t, ds, "Disqualifications")

	layers := map[string]float64{}
	for _, l := range rep.Sandbox.Active {
		layers[l] = 1
	}
	for l := range rep.Sandbox.Missing {
		layers[l] = 0
	}
	assert.Equal(t, layers, vector(t, api, panelQuery(t, ds, "Sandbox layers", 0, v), at, "layer"),
		"each layer active (1) or missing (0) as the match's report says, on every process of this machine")
	verify(t, ds, "Sandbox layers")
}
