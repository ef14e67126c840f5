package ismcts

import (
	"math"
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
	scores := versus(t, spec[0], players, deals, cfg)
	mean, sq := 0.0, 0.0
	for _, x := range scores {
		mean += x / float64(len(scores))
	}
	for _, x := range scores {
		sq += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(sq/float64(len(scores)-1)/float64(len(scores)))
	t.Logf("%s %dp %s: %d games, score %.3f [%.3f, %.3f]", spec[0], players, settings, len(scores), mean, mean-half, mean+half)
}
