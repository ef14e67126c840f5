package dashboards

import (
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// valueChecks names, for every panel of every dashboard (file, then title), the check
// of TestDashboardsAgainstARealPrometheus that compares the panel's value with a truth
// the test knows by other means (the database, a run's report, the files on disk, the
// process's own configuration). A panel missing here fails
// TestEveryPanelHasAValueCheck, so that no new panel lands unchecked; a check listed
// here that did not run fails the Prometheus test.
var valueChecks = map[string]map[string]string{
	"arena-throughput.json": {
		"Matches finished per second":   "panelValueChecks",
		"Decisions per second":          "panelValueChecks",
		"Matches in flight":             "matchRunPanels",
		"Match duration p50 / p99":      "matchRunPanels",
		"Matches per minute by outcome": "matchRunPanels",
		"Share of matches not complete": "crashRunPanels",
		"Runs stopped, by reason":       "processPanels",
		"Arena processes":               "processPanels",
		"Sandbox layers":                "processPanels",
		"SPRT progress":                 "crashRunPanels",
	},
	"bot-health.json": {
		"Decision latency p50":         "latencyFromEitherHistogram",
		"Decision latency p99":         "latencyFromEitherHistogram",
		"Forfeits per minute, by kind": "crashRunPanels",
		"Share of seats forfeited":     "crashingBotForfeitShare",
		"Process restarts per minute":  "crashRunPanels",
		"Live bot processes":           "matchRunPanels",
		"Time bank used p99":           "matchRunPanels",
		"Crashes per 100 decisions":    "crashingBotForfeitShare",
		"Disqualifications":            "processPanels",
	},
	"ladder-overview.json": {
		"Official Elo with 95% interval: $bot": "ladderPanelsPerLadder",
		"Live Elo":                             "ladderPanelsPerLadder",
		"Games per bot":                        "ladderPanelsPerLadder",
		"Score rate":                           "ladderPanelsPerLadder",
		"Games recorded per minute":            "gamesPerMinute",
		"Share of ladder seats forfeited":      "ladderHealthPanels",
		"Since the last game":                  "frozen",
		"Active bots":                          "ladderPanelsPerLadder",
		"Suspended bots":                       "ladderPanelsPerLadder",
		"Last refit":                           "ladderPanelsPerLadder",
		"Refit age":                            "ladderHealthPanels",
		"Refit duration":                       "ladderHealthPanels",
		"Totals' age":                          "ladderHealthPanels",
		"Replays' disk free":                   "ladderHealthPanels",
		"Store and refit errors per minute":    "ladderHealthPanels, failReads",
	},
	"ladder-fleet.json": {
		"Workers alive":                 "bothWorkersPlay",
		"Blocks queued":                 "frozen",
		"Oldest queued block":           "frozen",
		"Games per second, all workers": "frozen",
		"Queue depth and workers alive": "frozen",
		"Oldest queued block age":       "frozen",
		"Games per second per worker":   "frozen",
		"Games per second per slot":     "frozen",
		"Worker heartbeat age":          "frozen",
		"Blocks waiting for a retry":    "frozen",
		"Database pool use":             "poolUse",
		"Workers":                       "frozen",
	},
	"ladder-web.json": {
		"Requests per second by route and code": "webPanels",
		"Share of requests answered 5xx":        "webPanels",
		"Request duration p50 / p99 by route":   "webPanels",
		"Requests in flight":                    "webPanels",
	},
}

// TestEveryPanelHasAValueCheck: every panel of every dashboard is in valueChecks, and
// valueChecks names no panel that does not exist.
func TestEveryPanelHasAValueCheck(t *testing.T) {
	ds, err := Load()
	require.NoError(t, err)
	listed := 0
	for _, d := range ds {
		file := d.File[len("grafana/"):]
		checks, ok := valueChecks[file]
		require.True(t, ok, "dashboard %s has no entry in valueChecks", file)
		for _, p := range d.Panels {
			assert.NotEmpty(t, checks[p.Title], "%s: panel %q has no value check (valueChecks)", file, p.Title)
		}
		listed += len(checks)
		assert.Len(t, checks, len(d.Panels), "%s: valueChecks lists a panel the dashboard does not have", file)
	}
	assert.Len(t, valueChecks, len(ds), "valueChecks lists a dashboard that does not exist")
}

// verified is the set of panels ("file/title") whose value a check of the running
// test compared with its truth.
var verified = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// verify records that the caller compared the value of the panel titled title (of
// whichever dashboard has it: titles are unique) with its truth.
func verify(t *testing.T, ds []Dashboard, title string) {
	t.Helper()
	for _, d := range ds {
		for _, p := range d.Panels {
			if p.Title == title {
				verified.Lock()
				verified.m[d.File[len("grafana/"):]+"/"+title] = true
				verified.Unlock()
				return
			}
		}
	}
	t.Fatalf("no panel %q", title)
}

// everyPanelVerified fails for each panel whose value no check of the run compared.
func everyPanelVerified(t *testing.T, ds []Dashboard) {
	verified.Lock()
	defer verified.Unlock()
	var missing []string
	for _, d := range ds {
		file := d.File[len("grafana/"):]
		for _, p := range d.Panels {
			if !verified.m[file+"/"+p.Title] {
				missing = append(missing, file+": "+p.Title+" ("+valueChecks[file][p.Title]+")")
			}
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "panels whose value no check compared with its truth")
}
