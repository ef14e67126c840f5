package dashboards

import (
	"bytes"
	"encoding/json"
)

// The dashboards are written from the specs in spec.go (go run ./dashboards/gen), so
// that every panel gets a unit, a description, thresholds and the data source variable
// the same way; a test checks the files match their specs.

// dsRef is the data source every panel and query names: the dashboard's variable.
var dsRef = map[string]string{"type": "prometheus", "uid": "${datasource}"}

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

// render writes a dashboard's JSON: panels flow left to right in rows of 24 columns.
func (s spec) render() ([]byte, error) {
	var panels []any
	x, y, rowH := 0, 0, 0
	for i, p := range s.panels {
		if x+p.w > 24 {
			x, y, rowH = 0, y+rowH, 0
		}
		panels = append(panels, p.render(i+1, x, y))
		x += p.w
		rowH = max(rowH, p.h)
	}
	vars := []any{map[string]any{
		"name": "datasource", "label": "data source", "type": "datasource", "query": "prometheus",
		"current": map[string]any{"text": "Prometheus (arena)", "value": DefaultUID}, "hide": 0, "refresh": 1,
		"definition": "",
	}}
	for _, v := range s.vars {
		vars = append(vars, map[string]any{
			"name": v.name, "label": v.name, "type": "query", "datasource": dsRef,
			"query":      map[string]any{"query": v.def, "refId": "PrometheusVariableQueryEditor-VariableQuery"},
			"definition": v.def, "refresh": 2, "sort": 1, "includeAll": true, "multi": true, "current": map[string]any{},
			"options": []any{}, "hide": 0, "allValue": ".*",
		})
	}
	d := map[string]any{
		"uid": s.uid, "title": s.title, "description": s.desc, "tags": []string{"arena"}, "timezone": "browser",
		"schemaVersion": 39, "version": 1, "editable": true, "refresh": "10s",
		"time":        map[string]any{"from": "now-1h", "to": "now"},
		"templating":  map[string]any{"list": vars},
		"annotations": map[string]any{"list": []any{}},
		// Every arena dashboard links to the others, keeping the time range and variables.
		"links": []any{map[string]any{"title": "Arena dashboards", "type": "dashboards", "tags": []string{"arena"},
			"asDropdown": false, "includeVars": true, "keepTime": true, "icon": "external link"}},
		"panels": panels,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(d)
	return buf.Bytes(), err
}

func (p panel) render(id, x, y int) map[string]any {
	var targets []any
	for i, q := range p.queries {
		targets = append(targets, map[string]any{"refId": string(rune('A' + i)), "datasource": dsRef, "expr": q.expr,
			"legendFormat": q.legend, "instant": q.instant, "range": !q.instant})
	}
	var steps []any
	for _, s := range p.steps {
		var v any
		if s.value != nil {
			v = *s.value
		}
		steps = append(steps, map[string]any{"color": s.color, "value": v})
	}
	defaults := map[string]any{"unit": p.unit, "thresholds": map[string]any{"mode": "absolute", "steps": steps},
		"color": map[string]any{"mode": "palette-classic"}}
	if p.kind != "timeseries" {
		defaults["color"] = map[string]any{"mode": "thresholds"}
	} else {
		defaults["custom"] = map[string]any{"thresholdsStyle": map[string]any{"mode": "line"}}
	}
	if p.min != nil {
		defaults["min"] = *p.min
	}
	if p.max != nil {
		defaults["max"] = *p.max
	}
	if len(p.mappings) > 0 {
		opts := map[string]any{}
		for v, text := range p.mappings {
			opts[v] = map[string]any{"text": text}
		}
		defaults["mappings"] = []any{map[string]any{"type": "value", "options": opts}}
	}
	overrides := []any{}
	if p.band {
		overrides = append(overrides, map[string]any{"matcher": map[string]any{"id": "byRegexp", "options": " (upper|lower)$"},
			"properties": []any{map[string]any{"id": "custom.lineWidth", "value": 1},
				map[string]any{"id": "custom.lineStyle", "value": map[string]any{"fill": "dash", "dash": []int{10, 10}}}}})
	}
	out := map[string]any{
		"id": id, "type": p.kind, "title": p.title, "description": p.desc, "datasource": dsRef,
		"gridPos":     map[string]any{"x": x, "y": y, "w": p.w, "h": p.h},
		"targets":     targets,
		"fieldConfig": map[string]any{"defaults": defaults, "overrides": overrides},
		"options":     map[string]any{"legend": map[string]any{"displayMode": "list", "placement": "bottom", "showLegend": true}},
	}
	if p.repeat != "" {
		out["repeat"], out["repeatDirection"], out["maxPerRow"] = p.repeat, "h", 3
	}
	return out
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
