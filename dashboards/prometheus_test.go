package dashboards

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDashboardsAgainstARealPrometheus plays a real match and a real ladder run, both
// with --metrics-addr, has a real Prometheus (Debian's package) scrape them on
// loopback, and runs every query of every dashboard panel and variable through
// Prometheus's HTTP API: each must parse and return data. .ci/run installs Prometheus and sets ARENA_REQUIRE_PROMETHEUS=1 so that
// a missing binary fails there instead of skipping.
func TestDashboardsAgainstARealPrometheus(t *testing.T) {
	promBin, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("ARENA_REQUIRE_PROMETHEUS") != "" {
			t.Fatal("prometheus is not installed but ARENA_REQUIRE_PROMETHEUS is set")
		}
		t.Skip("prometheus is not installed (apt-get install prometheus); .ci/run installs it")
	}
	dir := t.TempDir()
	arenaBin := filepath.Join(dir, "arena")
	out, err := exec.Command("go", "build", "-o", arenaBin, "../cmd/arena").CombinedOutput()
	require.NoError(t, err, "%s", out)

	metricsAddr, ladderAddr, promAddr := freeAddr(t), freeAddr(t), freeAddr(t)
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: arena\n    static_configs:\n      - targets: [%q, %q]\n", metricsAddr, ladderAddr)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o644))
	prom := exec.Command(promBin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "tsdb"), "--web.listen-address="+promAddr)
	prom.Dir = dir
	var promLog strings.Builder
	prom.Stdout, prom.Stderr = &promLog, &promLog
	require.NoError(t, prom.Start())
	t.Cleanup(func() { _ = prom.Process.Kill(); _ = prom.Wait() })
	api := "http://" + promAddr
	waitFor(t, 30*time.Second, func() bool { return get(api+"/-/ready") == nil }, "prometheus ready: "+promLog.String())

	// A ladder of two built-in bots, run beside the match.
	db := filepath.Join(dir, "ladder.db")
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(arenaBin, "bot", "add", bot, "--db", db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	ladder := exec.Command(arenaBin, "ladder", "run", "--game", "ivanhoe", "--for", "10s", "--db", db, "--refresh", "1s",
		"--metrics-addr", ladderAddr, "--metrics-linger", "2m") // stopped below, once queried
	var ladderOut strings.Builder
	ladder.Stdout, ladder.Stderr = &ladderOut, &ladderOut
	require.NoError(t, ladder.Start())
	t.Cleanup(func() { _ = ladder.Process.Kill() })

	// A run long enough for several scrapes, then a linger so the end is scraped too.
	match := exec.Command(arenaBin, "match", "heuristic", "random", "--games", "8000", "-j", "2", "--no-replays",
		"--metrics-addr", metricsAddr, "--metrics-linger", "4s")
	match.Dir = dir
	var matchOut strings.Builder
	match.Stdout, match.Stderr = &matchOut, &matchOut
	start := time.Now()
	require.NoError(t, match.Run(), matchOut.String())
	end := time.Now().Add(-4 * time.Second) // when the match itself finished
	require.Greater(t, end.Sub(start), 8*time.Second, "the run must span several scrapes")

	// Prometheus hands a new target to its scrapers only after a few seconds, so make
	// sure the run itself, not just its linger, was scraped several times.
	n, err := query(api, `count_over_time(arena_decisions_total{bot="random"}[1m]) > 3`, end)
	require.NoError(t, err)
	require.Equal(t, 1, n, "too few scrapes during the run; prometheus said: %s", promLog.String())
	n, err = query(api, `count_over_time(arena_ladder_games_recorded_total[1m]) > 3`, end)
	require.NoError(t, err)
	require.Greater(t, n, 0, "too few scrapes during the ladder run: %s", ladderOut.String())

	values := map[string]string{"game": "ivanhoe", "bot": ".*", "__rate_interval": "10s", "__interval": "10s", "__range": "1m"}
	ds, err := Load()
	require.NoError(t, err)
	for _, d := range ds {
		for _, v := range d.Templating.List {
			q := strings.TrimSuffix(strings.TrimPrefix(Substitute(v.Definition, values), "label_values("), ")")
			parts := strings.Split(q, ", ")
			require.Len(t, parts, 2, "variable %s: label_values(selector, label)", v.Name)
			labels := labelValues(t, api, parts[0], parts[1], end)
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
	// Ctrl-C ends the linger; the ladder exits cleanly.
	require.NoError(t, ladder.Process.Signal(os.Interrupt))
	require.NoError(t, ladder.Wait(), ladderOut.String())
	assert.Contains(t, ladderOut.String(), "recorded")
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
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

func waitFor(t *testing.T, limit time.Duration, ok func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
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

// query runs an instant query and returns the number of series with a number in it.
func query(api, expr string, at time.Time) (int, error) {
	r, err := call(api + "/api/v1/query?query=" + url.QueryEscape(expr) + "&time=" + strconv.FormatInt(at.Unix(), 10))
	if err != nil {
		return 0, err
	}
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.Data, &data); err != nil {
		return 0, err
	}
	n := 0
	for _, s := range data.Result {
		if v, ok := s.Value[1].(string); ok && v != "NaN" {
			n++
		}
	}
	return n, nil
}

func labelValues(t *testing.T, api, selector, label string, at time.Time) []string {
	r, err := call(fmt.Sprintf("%s/api/v1/label/%s/values?match[]=%s&start=%d&end=%d", api, label,
		url.QueryEscape(selector), at.Add(-time.Minute).Unix(), at.Add(time.Minute).Unix()))
	require.NoError(t, err, "label_values(%s, %s)", selector, label)
	var vals []string
	require.NoError(t, json.Unmarshal(r.Data, &vals))
	return vals
}
