package ismcts

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// TestNinjasOracle is opt-in, a diagnostic of what the cards allow in two-player
// Ninjas: ISMCTS_ORACLE="DEALS SETTINGS [hands]" plays ismcts with SETTINGS, searching the
// true state (trueState, inference off; with hands, the true hands and a
// shuffled pile), against the heuristic in both
// seatings of each deal, as TestMeasure does (ISMCTS_MEASURE_FIRST,
// ISMCTS_MEASURE_OUT as there).
func TestNinjasOracle(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_ORACLE"))
	if len(spec) < 2 {
		t.Skip(`set ISMCTS_ORACLE="DEALS SETTINGS"`)
	}
	deals, _ := strconv.Atoi(spec[0])
	cfg, err := ParseSettings(spec[1] + ",infer=0")
	require.NoError(t, err)
	first, _ := strconv.Atoi(os.Getenv("ISMCTS_MEASURE_FIRST"))
	var out *os.File
	if name := os.Getenv("ISMCTS_MEASURE_OUT"); name != "" {
		out, err = os.Create(name)
		require.NoError(t, err)
		defer out.Close()
	}
	var scores []float64
	reward := make([]float64, 2)
	for d := first; d < first+deals; d++ {
		for seat := 0; seat < 2; seat++ {
			g, err := engine.New("ninjas", uint64(1000+d), 2)
			require.NoError(t, err)
			p, err := New("ninjas", uint64(d*10+seat), cfg)
			require.NoError(t, err)
			p.search.sampler = &trueState{g, len(spec) > 2 && spec[2] == "hands"}
			seats := []engine.Policy{heuristic.New(), heuristic.New()}
			seats[seat] = p
			require.NoError(t, engine.PlayOut(g, seats))
			require.Zero(t, p.Errors)
			MatchScore(g, reward)
			scores = append(scores, reward[seat])
			if out != nil {
				fmt.Fprintf(out, "%.4f\n", reward[seat])
			}
		}
	}
	mean, half := meanInterval(scores)
	t.Logf("oracle ninjas 2p %s: %d games, score %.3f [%.3f, %.3f]", strings.Join(spec[1:], " "), len(scores), mean, mean-half, mean+half)
}

// meanInterval is the mean of scores and the half width of its 95% interval.
func meanInterval(scores []float64) (mean, half float64) {
	sq := 0.0
	for _, x := range scores {
		mean += x / float64(len(scores))
	}
	for _, x := range scores {
		sq += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(sq/float64(len(scores)-1)/float64(len(scores)))
}
