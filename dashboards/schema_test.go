package dashboards

import (
	"encoding/json"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/bargauge"
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// strictSchema registers the panel kinds and the query type the dashboards use, so that
// the SDK's strict decoding checks their options and queries too.
func strictSchema() {
	rt := cog.NewRuntime()
	rt.RegisterPanelcfgVariant(timeseries.VariantConfig())
	rt.RegisterPanelcfgVariant(stat.VariantConfig())
	rt.RegisterPanelcfgVariant(bargauge.VariantConfig())
	rt.RegisterPanelcfgVariant(table.VariantConfig())
	rt.RegisterDataqueryVariant(prometheus.VariantConfig())
}

// decodeStrict decodes a dashboard as the SDK's schema has it: a field the schema does
// not know, a value of the wrong type or a missing required field is an error, and so
// is a value its constraints refuse.
func decodeStrict(b []byte) error {
	//lint:ignore SA1019 the v1 dashboard is the model Grafana's file provisioning loads
	var d dashboard.Dashboard
	if err := d.UnmarshalJSONStrict(b); failed(err) {
		return err
	}
	if err := d.Validate(); failed(err) {
		return err
	}
	return nil
}

// failed: the SDK returns an empty list of errors for none.
func failed(err error) bool {
	list, ok := err.(cog.BuildErrors)
	return err != nil && (!ok || len(list) > 0)
}

// TestDashboardsFollowTheSchema: every shipped dashboard decodes strictly as the SDK's
// dashboard type, with its panels' options and queries decoded as their kinds' types,
// and a field the schema does not know in a panel, its options or a query, or a value
// of the wrong type, is refused (so the check is no formality).
func TestDashboardsFollowTheSchema(t *testing.T) {
	strictSchema()
	ds, err := Load()
	require.NoError(t, err)
	kinds := map[string]bool{"timeseries": true, "stat": true, "bargauge": true, "table": true}
	for _, d := range ds {
		b, err := files.ReadFile(d.File)
		require.NoError(t, err)
		assert.NoError(t, decodeStrict(b), d.File)
		for _, p := range d.Panels {
			assert.True(t, kinds[p.Type], "%s panel %q: kind %q has a registered schema", d.File, p.Title, p.Type)
		}
		for _, m := range []struct {
			where []string
			key   string
			value any
		}{
			{nil, "legendFromat", "{{bot}}"},                 // a misspelt field in the panel,
			{[]string{"options"}, "legned", true},            // in its kind's options,
			{[]string{"targets"}, "exrp", "up"},              // in a query,
			{[]string{"fieldConfig", "defaults"}, "unit", 1}, // a unit that is no string
		} {
			var raw map[string]any
			require.NoError(t, json.Unmarshal(b, &raw))
			var obj any = raw["panels"].([]any)[0]
			for _, k := range m.where {
				obj = obj.(map[string]any)[k]
			}
			if list, ok := obj.([]any); ok {
				obj = list[0]
			}
			obj.(map[string]any)[m.key] = m.value
			bad, err := json.Marshal(raw)
			require.NoError(t, err)
			assert.Error(t, decodeStrict(bad), "%s: panel 1 with %s=%v in %v is refused", d.File, m.key, m.value, m.where)
		}
	}
}
