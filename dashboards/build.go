package dashboards

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/grafana/grafana-foundation-sdk/go/bargauge"
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// The dashboards are written from the specs in spec.go (go run ./dashboards/gen) with
// the Grafana Foundation SDK's typed builders, so that every panel gets a unit, a
// description, thresholds and the data source variable the same way, and a field
// Grafana does not know cannot be written; a test checks the files match their specs
// and parse strictly as the SDK's dashboard type.

// dsRef is the data source every panel and query names: the dashboard's variable.
var dsRef = common.DataSourceRef{Type: cog.ToPtr("prometheus"), Uid: cog.ToPtr("${datasource}")}

// DefaultUID is the provisioned data source the variable starts on.
const DefaultUID = "arena-prometheus"

// step is one threshold: from value on (nil: from minus infinity), colour.
type step struct {
	value *float64
	color string
}

func from(v float64, color string) step { return step{&v, color} }
func base(color string) step            { return step{nil, color} }

// neutral is the threshold of a panel whose value has no good or bad: one colour.
var neutral = []step{base("green")}

// target is one query of a panel.
type target struct {
	expr, legend string
	instant      bool
}

// panel is the spec of one panel.
type panel struct {
	kind, title, desc, unit string
	w, h                    int
	steps                   []step
	min, max                *float64
	queries                 []target
	// band: the panel draws its series named "... upper" and "... lower" as thin
	// dashed lines around the estimate (one pair per ladder and game, so no fill
	// between two named series).
	band bool
	// repeat names the variable the panel repeats for.
	repeat string
	// mappings give names to values (a stat's 0 and 1, say).
	mappings map[string]string
}

// variable is a dashboard query variable over label values.
type variable struct{ name, def string }

// spec is one dashboard.
type spec struct {
	file, uid, title, desc string
	vars                   []variable
	panels                 []panel
}

func ptr(v float64) *float64 { return &v }

// render writes a dashboard's JSON: panels flow left to right in rows of 24 columns
// (the SDK's own flow lets a panel overhang the row's end).
func (s spec) render() ([]byte, error) {
	//lint:ignore SA1019 the SDK marks its v1 dashboard deprecated for its v2 resource, which file provisioning does not load
	b := dashboard.NewDashboardBuilder(s.title).Uid(s.uid).Description(s.desc).Tags([]string{"arena"}).
		Timezone("browser").Editable().Refresh("10s").Time("now-1h", "now").Version(1).
		// Every arena dashboard links to the others, keeping the time range and variables.
		Link(dashboard.NewDashboardLinkBuilder("Arena dashboards").Type(dashboard.DashboardLinkTypeDashboards).
			Tags([]string{"arena"}).AsDropdown(false).IncludeVars(true).KeepTime(true).Icon("external link")).
		WithVariable(dashboard.NewDatasourceVariableBuilder("datasource").Label("data source").Type("prometheus").
			Current(dashboard.VariableOption{Text: str("Prometheus (arena)"), Value: str(DefaultUID)}))
	for _, v := range s.vars {
		b.WithVariable(dashboard.NewQueryVariableBuilder(v.name).Label(v.name).Datasource(dsRef).
			Query(dashboard.StringOrMap{Map: map[string]any{"query": v.def, "refId": "PrometheusVariableQueryEditor-VariableQuery"}}).
			Definition(v.def).Refresh(dashboard.VariableRefreshOnTimeRangeChanged).Sort(dashboard.VariableSortAlphabeticalAsc).
			IncludeAll(true).Multi(true).AllValue(".*"))
	}
	x, y, rowH := 0, 0, 0
	for i, p := range s.panels {
		if x+p.w > 24 {
			x, y, rowH = 0, y+rowH, 0
		}
		b.WithPanel(p.builder(uint32(i+1), dashboard.GridPos{X: uint32(x), Y: uint32(y), W: uint32(p.w), H: uint32(p.h)}))
		x += p.w
		rowH = max(rowH, p.h)
	}
	d, err := b.Build()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err = enc.Encode(d)
	return buf.Bytes(), err
}

func str(s string) dashboard.StringOrArrayOfString {
	return dashboard.StringOrArrayOfString{String: &s}
}

// panelBuilder is what the SDK's builders of every panel kind have in common.
type panelBuilder[B any] interface {
	cog.Builder[dashboard.Panel]
	Id(uint32) B
	Title(string) B
	Description(string) B
	Datasource(common.DataSourceRef) B
	GridPos(dashboard.GridPos) B
	Unit(string) B
	Min(float64) B
	Max(float64) B
	Thresholds(cog.Builder[dashboard.ThresholdsConfig]) B
	ColorScheme(cog.Builder[dashboard.FieldColor]) B
	Mappings([]dashboard.ValueMapping) B
	Repeat(string) B
	RepeatDirection(dashboard.PanelRepeatDirection) B
	MaxPerRow(float64) B
	WithTarget(cog.Builder[variants.Dataquery]) B
}

// builder is the SDK's builder of p's kind, set from p.
func (p panel) builder(id uint32, at dashboard.GridPos) cog.Builder[dashboard.Panel] {
	legend := common.NewVizLegendOptionsBuilder().DisplayMode(common.LegendDisplayModeList).
		Placement(common.LegendPlacementBottom).ShowLegend(true)
	switch p.kind {
	case "timeseries":
		b := configure(timeseries.NewPanelBuilder(), p, id, at, dashboard.FieldColorModeIdPaletteClassic).Legend(legend).
			Tooltip(common.NewVizTooltipOptionsBuilder().Mode(common.TooltipDisplayModeMulti).Sort(common.SortOrderDescending)).
			ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().Mode(common.GraphThresholdsStyleModeLine))
		if p.band {
			b.OverrideByRegexp(" (upper|lower)$", []dashboard.DynamicConfigValue{{Id: "custom.lineWidth", Value: 1},
				{Id: "custom.lineStyle", Value: common.LineStyle{Fill: cog.ToPtr(common.LineStyleFillDash), Dash: []float64{10, 10}}}})
		}
		return b
	case "bargauge":
		return configure(bargauge.NewPanelBuilder(), p, id, at, dashboard.FieldColorModeIdThresholds).Legend(legend)
	case "stat":
		return configure(stat.NewPanelBuilder(), p, id, at, dashboard.FieldColorModeIdThresholds)
	default:
		return configure(table.NewPanelBuilder(), p, id, at, dashboard.FieldColorModeIdThresholds).
			Footer(common.NewTableFooterOptionsBuilder().Show(false).Reducer([]string{}))
	}
}

// configure sets on b what every panel kind has: title, place, unit, thresholds,
// value names, repetition and queries.
func configure[B panelBuilder[B]](b B, p panel, id uint32, at dashboard.GridPos, color dashboard.FieldColorModeId) B {
	b.Id(id).Title(p.title).Description(p.desc).Datasource(dsRef).GridPos(at).Unit(p.unit).
		ColorScheme(dashboard.NewFieldColorBuilder().Mode(color))
	var steps []dashboard.Threshold
	for _, s := range p.steps {
		steps = append(steps, dashboard.Threshold{Value: s.value, Color: s.color})
	}
	b.Thresholds(dashboard.NewThresholdsConfigBuilder().Mode(dashboard.ThresholdsModeAbsolute).Steps(steps))
	if p.min != nil {
		b.Min(*p.min)
	}
	if p.max != nil {
		b.Max(*p.max)
	}
	if len(p.mappings) > 0 {
		m := dashboard.ValueMap{Type: dashboard.MappingTypeValueToText, Options: map[string]dashboard.ValueMappingResult{}}
		values := make([]string, 0, len(p.mappings))
		for v := range p.mappings {
			values = append(values, v)
		}
		sort.Strings(values)
		for i, v := range values {
			m.Options[v] = dashboard.ValueMappingResult{Text: cog.ToPtr(p.mappings[v]), Index: cog.ToPtr(int32(i))}
		}
		b.Mappings([]dashboard.ValueMapping{{ValueMap: &m}})
	}
	if p.repeat != "" {
		b.Repeat(p.repeat).RepeatDirection(dashboard.PanelRepeatDirectionH).MaxPerRow(3)
	}
	for i, q := range p.queries {
		t := prometheus.NewDataqueryBuilder().RefId(string(rune('A' + i))).Datasource(dsRef).Expr(q.expr).LegendFormat(q.legend)
		if q.instant {
			t.Instant()
		} else {
			t.Range()
		}
		b.WithTarget(t)
	}
	return b
}

// Generate renders every dashboard: file name to JSON.
func Generate() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range specs {
		b, err := s.render()
		if err != nil {
			return nil, err
		}
		out[s.file] = b
	}
	return out, nil
}
