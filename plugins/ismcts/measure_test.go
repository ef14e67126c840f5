package ismcts

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// TestMeasure is opt-in: ISMCTS_MEASURE="GAME PLAYERS DEALS SETTINGS [FIELD]" plays
// ismcts with SETTINGS against the heuristic (FIELD random: against random players)
// in-process, for tuning (the arena measures the published figures). SETTINGS
// "heuristic" seats the heuristic bot instead of ismcts, on the same deals.
// ISMCTS_MEASURE_FIRST=D starts at deal D instead of 0 (seed 1000+D).
// ISMCTS_MEASURE_OUT=FILE also writes each game's score as it ends, a line each in
// the order played, so that two settings can be compared game by game (TestPaired).
// ISMCTS_MEASURE_ORACLE=1 has ismcts search the true state instead (oracle); =hands,
// in Ninjas, the true hands with the pile's order unknown; =hands:P (or 1:P) only a
// share P of the samples.
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
	if o := os.Getenv("ISMCTS_MEASURE_ORACLE"); o != "" { // a diagnostic: the search sees the true state
		kind, share, _ := strings.Cut(o, ":") // hands:0.1, a tenth of the samples
		f, _ := strconv.ParseFloat(share, 64)
		bot = oracle(bot, kind == "hands", f)
		defer func() { dealt = nil }()
	}
	if first, err := strconv.Atoi(os.Getenv("ISMCTS_MEASURE_FIRST")); err == nil {
		firstDeal = first
		defer func() { firstDeal = 0 }()
	}
	if out := os.Getenv("ISMCTS_MEASURE_OUT"); out != "" { // per-game scores, for paired comparisons
		f, err := os.Create(out)
		require.NoError(t, err)
		defer f.Close()
		eachGame = func(x float64) { fmt.Fprintf(f, "%.4f\n", x) }
		defer func() { eachGame = nil }()
	}
	scores := versusField(t, spec[0], players, deals, bot, field)
	mean, half := meanInterval(scores)
	t.Logf("%s %dp %s %s: %d games, score %.3f [%.3f, %.3f]", spec[0], players, settings, spec[len(spec)-1], len(scores), mean, mean-half, mean+half)
}

// TestIterationCost is opt-in: ISMCTS_ITERATION_COST=1 times every iteration of the
// default search over two whole games of every table (300 iterations a decision, the
// other seats heuristic) and logs the quantiles, wall time: the tail beyond the CPU
// cost of one iteration is the process's stalls on a loaded machine.
func TestIterationCost(t *testing.T) {
	if os.Getenv("ISMCTS_ITERATION_COST") == "" {
		t.Skip("set ISMCTS_ITERATION_COST=1 to measure")
	}
	for _, tc := range benchTables {
		for _, n := range tc.players {
			var took []time.Duration
			for d := 0; d < 2; d++ {
				g, err := engine.New(tc.game, uint64(50+d), n)
				require.NoError(t, err)
				seats := make([]engine.Policy, n)
				for s := range seats {
					seats[s] = heuristic.New()
				}
				s, err := NewSearch(tc.game, nil, 1, Config{})
				require.NoError(t, err)
				seats[d%n] = &timedSearch{s: s, took: &took}
				require.NoError(t, engine.PlayOut(g, seats))
			}
			slices.Sort(took)
			k := len(took)
			t.Logf("%s %dp: %d iterations, p50 %v, p99 %v, p99.9 %v, max %v", tc.game, n, k,
				took[k/2], took[k*99/100], took[k*999/1000], took[k-1])
		}
	}
}

// timedSearch is a policy that runs 300 iterations of its search a decision and
// appends the wall time of each to took.
type timedSearch struct {
	s      *Search
	events []engine.Event
	took   *[]time.Duration
}

func (p *timedSearch) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	p.events = append(p.events, events...)
	if len(options) <= 1 && !hiddenQuestion(view) {
		return 0
	}
	p.s.tree.reset()
	for i := 0; i < 300; i++ {
		start := time.Now()
		if err := p.s.iterate(view, p.events); err != nil {
			panic(err)
		}
		*p.took = append(*p.took, time.Since(start))
	}
	return p.s.tree.best(options, false)
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

// TestPaired is opt-in: ISMCTS_PAIR="A B K" reads two files of per-game scores
// (ISMCTS_MEASURE_OUT's, two settings on the same deals in the same order) and logs
// the mean difference B-A over deals of K games each (K: the players, one game a
// seat), with its 95% interval: deals, not games, are the independent units, since a
// deal's seatings share its cards.
func TestPaired(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_PAIR"))
	if len(spec) != 3 {
		t.Skip(`set ISMCTS_PAIR="A.scores B.scores GAMES_A_DEAL"`)
	}
	a, b := readScores(t, spec[0]), readScores(t, spec[1])
	k, err := strconv.Atoi(spec[2])
	require.NoError(t, err)
	n, diff, half := pairedDifference(a, b, k)
	require.Positive(t, n, "fewer than two whole deals in both files")
	t.Logf("games %d A %.3f B %.3f B-A %+.3f [%+.3f, %+.3f]", n, mean(a[:n]), mean(b[:n]), diff, diff-half, diff+half)
}

// readScores reads a file of ISMCTS_MEASURE_OUT's scores, one a line.
func readScores(t *testing.T, path string) []float64 {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var scores []float64
	for _, line := range strings.Fields(string(data)) {
		x, err := strconv.ParseFloat(line, 64)
		require.NoError(t, err, "%s", path)
		scores = append(scores, x)
	}
	return scores
}

// pairedDifference is the mean over deals of b's mean score less a's, and the half
// width of its 95% interval, over the whole deals of k games both have played; n is
// the games counted (0 where fewer than two deals are).
func pairedDifference(a, b []float64, k int) (n int, diff, half float64) {
	if k < 1 || min(len(a), len(b)) < 2*k {
		return 0, 0, 0
	}
	n = min(len(a), len(b)) / k * k
	deals := make([]float64, 0, n/k)
	for i := 0; i < n; i += k {
		deals = append(deals, mean(b[i:i+k])-mean(a[i:i+k]))
	}
	diff, half = meanInterval(deals)
	return n, diff, half
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// TestPairedDifferenceIsOverDeals: the difference is taken deal by deal (k games
// each), its interval from the spread of the deals' differences, over the whole deals
// both files have; fewer than two deals give none.
func TestPairedDifferenceIsOverDeals(t *testing.T) {
	a := []float64{1, 0, 0, 0, 1, 1}
	b := []float64{1, 1, 1, 0, 1, 1, 0.5} // a deal begun, not counted
	n, diff, half := pairedDifference(a, b, 2)
	require.Equal(t, 6, n)
	require.InDelta(t, 1.0/3, diff, 1e-12, "deals differ by 0.5, 0.5 and 0")
	// the deals' differences have a variance of 1/12, so a standard error of 1/6
	require.InDelta(t, 1.96/6, half, 1e-12)
	n, _, _ = pairedDifference(a, b, 3)
	require.Equal(t, 6, n, "two deals of three")
	n, _, _ = pairedDifference(a[:3], b, 2)
	require.Zero(t, n, "one whole deal")
	n, _, _ = pairedDifference(a, b, 0)
	require.Zero(t, n)
}
