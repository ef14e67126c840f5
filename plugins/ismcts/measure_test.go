package ismcts

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
)

// TestMeasure is opt-in: ISMCTS_MEASURE="GAME PLAYERS DEALS SETTINGS [FIELD]" plays
// ismcts with SETTINGS against the heuristic (FIELD random: against random players)
// in-process, for tuning (the arena measures the published figures). SETTINGS
// "heuristic" seats the heuristic bot instead of ismcts, on the same deals.
func TestMeasure(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_MEASURE"))
	if len(spec) < 3 {
		t.Skip("set ISMCTS_MEASURE=\"GAME PLAYERS DEALS [SETTINGS]\"")
	}
	players, _ := strconv.Atoi(spec[1])
	deals, _ := strconv.Atoi(spec[2])
	settings, field := "", heuristicField
	if len(spec) > 3 {
		settings = spec[3]
	}
	if len(spec) > 4 && spec[4] == "random" {
		field = randomField
	}
	bot := func(_, _ int) (engine.Policy, error) { return heuristic.New(), nil }
	if settings != "heuristic" {
		cfg, err := ParseSettings(settings)
		if err != nil {
			t.Fatal(err)
		}
		bot = func(d, seat int) (engine.Policy, error) { return New(spec[0], uint64(d*10+seat), cfg) }
	}
	scores := versusField(t, spec[0], players, deals, bot, field)
	mean, sq := 0.0, 0.0
	for _, x := range scores {
		mean += x / float64(len(scores))
	}
	for _, x := range scores {
		sq += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(sq/float64(len(scores)-1)/float64(len(scores)))
	t.Logf("%s %dp %s %s: %d games, score %.3f [%.3f, %.3f]", spec[0], players, settings, spec[len(spec)-1], len(scores), mean, mean-half, mean+half)
}
