package ismcts

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// trueSampler is a sampler that cheats: every sample is the true game, hidden hands, draw
// pile order and random source included. A search with it plays a perfect-information
// game against a seat that does not, which bounds what any handling of the hidden
// cards (sampling, inference) could add.
// With shuffle it knows the hands but not the pile: each sample's draw pile is the
// true pile's cards in a fresh order (set through reflection, the pile being the
// engine's own; a diagnostic only).
type trueSampler struct {
	live    *engine.Game
	shuffle bool
}

func (o trueSampler) Sample(_ engine.Game, _ engine.View, _ []engine.Event, r *engine.Rand) (engine.Game, error) {
	g := (*o.live).Clone()
	if o.shuffle {
		v := reflect.ValueOf(g.(*ninjas.Game)).Elem()
		n := int(v.FieldByName("pileN").Int())
		f := v.FieldByName("pile")
		pile := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Interface().(*[ninjas.DeckSize]ninjas.Kind)
		for i := n - 1; i > 0; i-- {
			j := r.Intn(i + 1)
			pile[i], pile[j] = pile[j], pile[i]
		}
	}
	return g, nil
}

// TestNinjasOracle is opt-in, a diagnostic of what the cards allow in two-player
// Ninjas: ISMCTS_ORACLE="DEALS SETTINGS [hands]" plays ismcts with SETTINGS, searching the
// true state (trueSampler, inference off; with hands, the true hands and a
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
			p.search.sampler = trueSampler{&g, len(spec) > 2 && spec[2] == "hands"}
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
