package ismcts

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMeasure is opt-in: ISMCTS_MEASURE="GAME PLAYERS DEALS SETTINGS" plays ismcts with
// SETTINGS against the heuristic in-process, for tuning (the arena measures the
// published figures).
func TestMeasure(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_MEASURE"))
	if len(spec) < 3 {
		t.Skip("set ISMCTS_MEASURE=\"GAME PLAYERS DEALS [SETTINGS]\"")
	}
	players, _ := strconv.Atoi(spec[1])
	deals, _ := strconv.Atoi(spec[2])
	settings := ""
	if len(spec) > 3 {
		settings = spec[3]
	}
	cfg, err := ParseSettings(settings)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %dp %s: score %.3f", spec[0], players, settings, versus(t, spec[0], players, deals, cfg))
}
