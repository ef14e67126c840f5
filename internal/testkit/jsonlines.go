package testkit

import (
	"encoding/json"
	"strings"
	"testing"
)

// JSONLines parses every line of text (a log written with --log-format json) as one
// JSON object; a line that is not one fails the test, naming it.
func JSONLines(t testing.TB, text string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l == "" {
			continue
		}
		var o map[string]any
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("not a JSON object: %q: %v", l, err)
		}
		objs = append(objs, o)
	}
	return objs
}
