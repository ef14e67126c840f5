// Package dashboards ships the arena's Grafana dashboards (grafana/*.json, written
// from spec.go by `go run ./dashboards/gen`), their provisioning files, a Prometheus
// config (prometheus.yml) and its alerting rules (alerts.yml, unit-tested by
// alerts_test.yml). The Go here writes and reads the JSON so that tests can check its
// structure and run every panel's query against a real Prometheus; Grafana itself
// never runs this code.
//
// The JSON is built with the Grafana Foundation SDK's typed builders (no dependencies
// of its own): a panel kind's options and a query's fields are the SDK's, so a
// misspelt field cannot be written, and the tests decode every file strictly with the
// SDK's dashboard type. The SDK marks that type (Grafana's dashboard JSON model, which
// file provisioning loads) deprecated in favour of its v2 resource; the v2 resource is
// served by Grafana's newer API only, so the files stay in the model every Grafana
// loads. spec.go keeps the dashboards as short tables of panels; build.go turns a
// table into builders.
package dashboards

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

//go:embed grafana/*.json provisioning prometheus.yml alerts.yml
var files embed.FS

// File returns one shipped file (e.g. "prometheus.yml").
func File(name string) ([]byte, error) { return files.ReadFile(name) }

// Ref names a data source.
type Ref struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// GridPos places a panel on Grafana's 24-column grid.
type GridPos struct{ X, Y, W, H int }

// Target is one query of a panel.
type Target struct {
	RefID      string `json:"refId"`
	Expr       string `json:"expr"`
	Legend     string `json:"legendFormat"`
	Instant    bool   `json:"instant"`
	Datasource *Ref   `json:"datasource"`
}

// Step is one threshold step.
type Step struct {
	Color string   `json:"color"`
	Value *float64 `json:"value"`
}

// FieldConfig is the part of a panel's field config the tests read.
type FieldConfig struct {
	Defaults struct {
		Unit       string `json:"unit"`
		Thresholds struct {
			Steps []Step `json:"steps"`
		} `json:"thresholds"`
	} `json:"defaults"`
}

// Link is a dashboard link.
type Link struct {
	Type string   `json:"type"`
	Tags []string `json:"tags"`
}

// Panel is one panel of a dashboard.
type Panel struct {
	ID          int         `json:"id"`
	Type        string      `json:"type"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	GridPos     GridPos     `json:"gridPos"`
	Datasource  *Ref        `json:"datasource"`
	Targets     []Target    `json:"targets"`
	FieldConfig FieldConfig `json:"fieldConfig"`
	Repeat      string      `json:"repeat"`
}

// Variable is a dashboard template variable.
type Variable struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Query      any    `json:"query"`
	Definition string `json:"definition"`
	Current    struct {
		Value any `json:"value"`
	} `json:"current"`
	Datasource *Ref   `json:"datasource"`
	Multi      bool   `json:"multi"`
	AllValue   string `json:"allValue"`
}

// Dashboard is one dashboard file.
type Dashboard struct {
	File       string   `json:"-"`
	UID        string   `json:"uid"`
	Title      string   `json:"title"`
	Tags       []string `json:"tags"`
	Links      []Link   `json:"links"`
	Templating struct {
		List []Variable `json:"list"`
	} `json:"templating"`
	Panels []Panel `json:"panels"`
}

// Load parses every dashboard shipped, in file name order.
func Load() ([]Dashboard, error) {
	names, err := fs.Glob(files, "grafana/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Dashboard
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var d Dashboard
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		d.File = n
		out = append(out, d)
	}
	return out, nil
}

// ProvisionedUIDs lists the data source uids the provisioning files define.
func ProvisionedUIDs() ([]string, error) {
	names, err := fs.Glob(files, "provisioning/datasources/*.yaml")
	if err != nil {
		return nil, err
	}
	re := regexp.MustCompile(`(?m)^\s*uid:\s*(\S+)\s*$`)
	var uids []string
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			uids = append(uids, m[1])
		}
	}
	return uids, nil
}

var varRef = regexp.MustCompile(`\$(__[a-z_]+|[A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::[a-z]+)?\}`)

// Uses lists the variable names an expression refers to ($name or ${name}).
func Uses(expr string) []string {
	var names []string
	for _, m := range varRef.FindAllStringSubmatch(expr, -1) {
		if m[1] != "" {
			names = append(names, m[1])
		} else {
			names = append(names, m[2])
		}
	}
	return names
}

// Substitute replaces the variables of expr with values, as Grafana would.
func Substitute(expr string, values map[string]string) string {
	return varRef.ReplaceAllStringFunc(expr, func(m string) string {
		name := strings.Trim(strings.TrimPrefix(m, "$"), "{}")
		if i := strings.IndexByte(name, ':'); i >= 0 {
			name = name[:i]
		}
		if v, ok := values[name]; ok {
			return v
		}
		return m
	})
}
