package dashboards

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtins are Grafana's own variables, defined by Grafana rather than the dashboard.
var builtins = map[string]bool{"__rate_interval": true, "__interval": true, "__range": true}

func TestDashboardsAreWellFormed(t *testing.T) {
	ds, err := Load()
	require.NoError(t, err)
	require.Len(t, ds, 5, "throughput, bot health, ladder overview, ladder fleet, ladder web service")
	uids, err := ProvisionedUIDs()
	require.NoError(t, err)
	require.Contains(t, uids, DefaultUID)
	seenUID := map[string]bool{}
	for _, d := range ds {
		t.Run(d.File, func(t *testing.T) {
			assert.NotEmpty(t, d.Title)
			assert.False(t, seenUID[d.UID], "dashboard uid %q used twice", d.UID)
			seenUID[d.UID] = true
			assert.Contains(t, d.Tags, "arena")
			require.Len(t, d.Links, 1, "a link to the other arena dashboards")
			assert.Equal(t, "dashboards", d.Links[0].Type)
			assert.Equal(t, []string{"arena"}, d.Links[0].Tags)
			defined := map[string]bool{}
			for i, v := range d.Templating.List {
				defined[v.Name] = true
				if i == 0 {
					require.Equal(t, "datasource", v.Name, "the data source variable comes first")
					assert.Equal(t, "datasource", v.Type)
					assert.Equal(t, "prometheus", v.Query)
					assert.Contains(t, uids, v.Current.Value, "it starts on a provisioned data source")
					continue
				}
				assertDatasourceVar(t, v.Datasource, "variable "+v.Name)
				for _, u := range Uses(v.Definition) {
					assert.True(t, defined[u] || builtins[u], "variable %s uses $%s, defined after it or nowhere", v.Name, u)
				}
			}
			checkPanels(t, d, defined)
		})
	}
}

func checkPanels(t *testing.T, d Dashboard, defined map[string]bool) {
	ids := map[int]bool{}
	var cells [][24]bool
	for _, p := range d.Panels {
		assert.False(t, ids[p.ID], "panel id %d used twice", p.ID)
		ids[p.ID] = true
		g := p.GridPos
		require.True(t, g.W > 0 && g.H > 0 && g.X >= 0 && g.Y >= 0 && g.X+g.W <= 24, "panel %d grid %+v", p.ID, g)
		for len(cells) < g.Y+g.H {
			cells = append(cells, [24]bool{})
		}
		for y := g.Y; y < g.Y+g.H; y++ {
			for x := g.X; x < g.X+g.W; x++ {
				require.False(t, cells[y][x], "panel %d overlaps another at %d,%d", p.ID, x, y)
				cells[y][x] = true
			}
		}
		assert.NotEmpty(t, p.Description, "panel %d (%s) says what it shows", p.ID, p.Title)
		assert.NotEmpty(t, p.FieldConfig.Defaults.Unit, "panel %d (%s) has a unit", p.ID, p.Title)
		assert.NotEmpty(t, p.FieldConfig.Defaults.Thresholds.Steps, "panel %d (%s) has thresholds", p.ID, p.Title)
		assertDatasourceVar(t, p.Datasource, fmt.Sprintf("panel %d", p.ID))
		if p.Repeat != "" {
			assert.True(t, defined[p.Repeat], "panel %d repeats for undefined $%s", p.ID, p.Repeat)
		}
		require.NotEmpty(t, p.Targets, "panel %d has no query", p.ID)
		for _, tg := range p.Targets {
			assert.NotEmpty(t, tg.Expr, "panel %d %s", p.ID, tg.RefID)
			assertDatasourceVar(t, tg.Datasource, fmt.Sprintf("panel %d target %s", p.ID, tg.RefID))
			if p.Type == "table" || p.Type == "bargauge" || p.Type == "stat" {
				assert.True(t, tg.Instant, "panel %d (%s) shows one value per series: an instant query", p.ID, p.Title)
			}
			for _, u := range Uses(tg.Expr) {
				assert.True(t, defined[u] || builtins[u], "panel %d uses undefined $%s", p.ID, u)
			}
		}
	}
}

func assertDatasourceVar(t *testing.T, r *Ref, what string) {
	t.Helper()
	if assert.NotNil(t, r, "%s names no data source", what) {
		assert.Equal(t, "${datasource}", r.UID, "%s names the data source variable", what)
	}
}

// TestDashboardFilesAreGenerated: the JSON files are what the specs give (run
// go run ./dashboards/gen after changing spec.go).
func TestDashboardFilesAreGenerated(t *testing.T) {
	gen, err := Generate()
	require.NoError(t, err)
	for name, want := range gen {
		got, err := files.ReadFile("grafana/" + name)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "grafana/%s is not what spec.go gives: go run ./dashboards/gen", name)
	}
}

func TestProvisioningAndConfig(t *testing.T) {
	ds, err := files.ReadFile("provisioning/datasources/prometheus.yaml")
	require.NoError(t, err)
	assert.Contains(t, string(ds), "timeInterval: 5s", "$__rate_interval follows the scrape interval")
	cfg, err := File("prometheus.yml")
	require.NoError(t, err)
	assert.Contains(t, string(cfg), "scrape_interval: 5s", "the data source's timeInterval is the scrape interval")
	assert.Contains(t, string(cfg), "rule_files:\n  - alerts.yml")
	assert.Contains(t, string(cfg), "job_name: arena-match")
	assert.Contains(t, string(cfg), "job_name: arena-ladder")
}

// TestAlertingRules runs promtool on the shipped config and rules: the config and
// rules check, and every rule's unit test in alerts_test.yml passes.
func TestAlertingRules(t *testing.T) {
	promtool := requireTool(t, "promtool")
	for _, args := range [][]string{
		{"check", "config", "prometheus.yml"},
		{"check", "rules", "alerts.yml"},
		{"test", "rules", "alerts_test.yml"},
	} {
		out, err := exec.Command(promtool, args...).CombinedOutput()
		assert.NoError(t, err, "promtool %s: %s", strings.Join(args, " "), out)
	}
}

// requireTool finds a Prometheus binary: a test skips without it, except under
// ARENA_REQUIRE_PROMETHEUS (set by .ci/run), where it fails.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ARENA_REQUIRE_PROMETHEUS") != "" {
			t.Fatalf("%s is not installed but ARENA_REQUIRE_PROMETHEUS is set", name)
		}
		t.Skipf("%s is not installed (apt-get install prometheus); .ci/run installs it", name)
	}
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	return abs
}

func TestSubstitute(t *testing.T) {
	got := Substitute(`rate(x{game=~"$game", bot=~"${bot}"}[$__rate_interval])`,
		map[string]string{"game": "ivanhoe", "bot": ".*", "__rate_interval": "30s"})
	assert.Equal(t, `rate(x{game=~"ivanhoe", bot=~".*"}[30s])`, got)
	assert.Equal(t, []string{"game", "bot", "__rate_interval"}, Uses(`$game ${bot} $__rate_interval`))
}
