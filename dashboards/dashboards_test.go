package dashboards

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtins are Grafana's own variables, defined by Grafana rather than the dashboard.
var builtins = map[string]bool{"__rate_interval": true, "__interval": true, "__range": true}

func TestDashboardsAreWellFormed(t *testing.T) {
	ds, err := Load()
	require.NoError(t, err)
	require.Len(t, ds, 3, "throughput, bot health, ladder overview")
	uids, err := ProvisionedUIDs()
	require.NoError(t, err)
	require.NotEmpty(t, uids)
	seenUID := map[string]bool{}
	for _, d := range ds {
		t.Run(d.File, func(t *testing.T) {
			assert.NotEmpty(t, d.Title)
			assert.False(t, seenUID[d.UID], "dashboard uid %q used twice", d.UID)
			seenUID[d.UID] = true
			defined := map[string]bool{}
			for _, v := range d.Templating.List {
				defined[v.Name] = true
				assertProvisioned(t, uids, v.Datasource, "variable "+v.Name)
				for _, u := range Uses(v.Definition) {
					assert.True(t, defined[u] || builtins[u], "variable %s uses $%s, defined after it or nowhere", v.Name, u)
				}
			}
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
				assertProvisioned(t, uids, p.Datasource, fmt.Sprintf("panel %d", p.ID))
				require.NotEmpty(t, p.Targets, "panel %d has no query", p.ID)
				for _, tg := range p.Targets {
					assert.NotEmpty(t, tg.Expr, "panel %d %s", p.ID, tg.RefID)
					assertProvisioned(t, uids, tg.Datasource, fmt.Sprintf("panel %d target %s", p.ID, tg.RefID))
					for _, u := range Uses(tg.Expr) {
						assert.True(t, defined[u] || builtins[u], "panel %d uses undefined $%s", p.ID, u)
					}
				}
			}
		})
	}
}

func assertProvisioned(t *testing.T, uids []string, r *Ref, what string) {
	t.Helper()
	if !assert.NotNil(t, r, "%s names no data source", what) {
		return
	}
	assert.Contains(t, uids, r.UID, "%s names data source %q, which is not provisioned", what, r.UID)
}

func TestSubstitute(t *testing.T) {
	got := Substitute(`rate(x{game=~"$game", bot=~"${bot}"}[$__rate_interval])`,
		map[string]string{"game": "ivanhoe", "bot": ".*", "__rate_interval": "30s"})
	assert.Equal(t, `rate(x{game=~"ivanhoe", bot=~".*"}[30s])`, got)
	assert.Equal(t, []string{"game", "bot", "__rate_interval"}, Uses(`$game ${bot} $__rate_interval`))
}
