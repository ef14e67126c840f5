package ismcts

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// fitSample is one position of a five-player game: its phase, each seat's features
// and each seat's final points, both relative to the table's mean.
type fitSample struct {
	phase int
	x     [engine.MaxSeats][fitFeatures]float64
	y     [kardinal.MaxPlayers]float64
}

// fitFirstDeal is the first deal the fit plays (seed 1000+deal, as TestMeasure's):
// past the tuning deals 8000-8039 that screens use.
const fitFirstDeal = 8040

// TestFitKardinalEvaluation is opt-in: ISMCTS_FIT=N plays N five-player games of the
// heuristic bot in-process (deals from fitFirstDeal), records every 20th position of
// each, fits kardinalFitted's models on the first four fifths of the games by least
// squares and checks them on the rest against KardinalPotential's comparison, and
// prints the models as Go to paste into kardinal_fit.go (ISMCTS_FIT_PLAYOUT=N: the
// features of each position played on for N decisions of KardinalPlacer, placedOn):
//
//	ISMCTS_FIT=10000 nice -n 19 go test ./plugins/ismcts -run TestFitKardinalEvaluation -v
func TestFitKardinalEvaluation(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ISMCTS_FIT"))
	if games <= 0 {
		t.Skip("set ISMCTS_FIT=N (games) to fit Kardinal's cut-off evaluation")
	}
	var train, test []fitSample
	for d := fitFirstDeal; d < fitFirstDeal+games; d++ {
		s := fitGame(t, uint64(1000+d), d)
		if d-fitFirstDeal < games*4/5 {
			train = append(train, s...)
		} else {
			test = append(test, s...)
		}
	}
	var models [fitPhases]fitted
	for p := range models {
		models[p] = fitPhase(train, p)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "// %d positions of %d games (deals %d-%d)\n", len(train), games*4/5, fitFirstDeal, fitFirstDeal+games*4/5-1)
	for p, m := range models {
		fmt.Fprintf(&out, "\t{coef: [fitFeatures]float64{")
		for j, c := range m.coef {
			if j > 0 {
				out.WriteString(", ")
			}
			fmt.Fprintf(&out, "%.3f", c)
		}
		fmt.Fprintf(&out, "}, soft: %.2f}, // phase %d\n", m.soft, p)
	}
	t.Log("\n" + out.String())
	for p := range models {
		fl, fa, n := pairLoss(test, p, func(x *[fitFeatures]float64) float64 { return dot(models[p].coef, x) }, models[p].soft)
		pl, pa, _ := pairLoss(test, p, func(x *[fitFeatures]float64) float64 { return x[fitProjected] + x[fitPart] }, 5)
		t.Logf("phase %d, %d held-out pairs: fitted log loss %.4f, ahead right %.3f; potential (soft 5) %.4f, %.3f", p, n, fl, fa, pl, pa)
	}
}

// fitGame plays one five-player game of the heuristic bot and returns every 20th
// position (from an offset set by the deal), with the final points.
func fitGame(t *testing.T, seed uint64, d int) []fitSample {
	g, err := kardinal.New(seed, kardinal.MaxPlayers)
	require.NoError(t, err)
	var samples []fitSample
	seats := make([]engine.Policy, kardinal.MaxPlayers)
	for s := range seats {
		h := heuristic.New()
		seats[s] = engine.PolicyFunc(func(v engine.View, ev []engine.Event, o []engine.Option) int {
			if g.Decisions()%20 == d%20 {
				var x fitSample
				x.phase = kardinalFeatures(placedOn(g, d), &x.x)
				samples = append(samples, x)
			}
			return h.Choose(v, ev, o)
		})
	}
	require.NoError(t, engine.PlayOut(g, seats))
	final := g.Result().Score
	mean := 0.0
	for _, y := range final {
		mean += float64(y) / float64(len(final))
	}
	for i := range samples {
		for s, y := range final {
			samples[i].y[s] = float64(y) - mean
		}
	}
	return samples
}

// placedOn is g itself, or with ISMCTS_FIT_PLAYOUT=N a copy of it played on for N
// decisions of KardinalPlacer, as a search's play-out is before its cut-off: a fit to
// the states the evaluation meets, with the outcome of the game they came from (g
// itself where the play-out ends the game).
func placedOn(g *kardinal.Game, d int) *kardinal.Game {
	n, _ := strconv.Atoi(os.Getenv("ISMCTS_FIT_PLAYOUT"))
	if n <= 0 {
		return g
	}
	c := g.Clone().(*kardinal.Game)
	r := engine.NewRand(uint64(d*1000 + g.Decisions()))
	for i := 0; i < n && !c.Terminal(); i++ {
		if err := c.Apply(KardinalPlacer(c, &r)); err != nil {
			panic(err)
		}
	}
	if c.Terminal() { // the game's last decisions: nothing left to evaluate
		return g
	}
	return c
}

// fitPhase fits phase p's weights by least squares (a little ridge for features that
// rarely vary) and its temperature from the errors of the predicted differences.
func fitPhase(samples []fitSample, p int) fitted {
	a := system(fitFeatures)
	for _, x := range samples {
		if x.phase != p {
			continue
		}
		for s := range kardinal.MaxPlayers {
			for i := range fitFeatures {
				for j := range fitFeatures {
					a[i][j] += x.x[s][i] * x.x[s][j]
				}
				a[i][fitFeatures] += x.x[s][i] * x.y[s]
			}
		}
	}
	for i := range fitFeatures {
		a[i][i] += 1
	}
	m := fitted{coef: [fitFeatures]float64(solve(a))}
	sq, n := 0.0, 0
	for _, x := range samples {
		if x.phase != p {
			continue
		}
		for s := range kardinal.MaxPlayers {
			for o := s + 1; o < kardinal.MaxPlayers; o++ {
				e := (x.y[s] - x.y[o]) - (dot(m.coef, &x.x[s]) - dot(m.coef, &x.x[o]))
				sq, n = sq+e*e, n+1
			}
		}
	}
	m.soft = math.Sqrt(sq/float64(n)) * math.Sqrt(3) / math.Pi // a logistic of that spread
	return m
}

// system is an n x n linear system's augmented rows (n+1 long each), zero, for solve.
func system(n int) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	return a
}

// solve solves the augmented system a (rows of n+1) by Gaussian elimination with
// partial pivoting, in place. The fits of both games' cut-off evaluations use it.
func solve(a [][]float64) []float64 {
	n := len(a)
	for c := range n {
		best := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[best][c]) {
				best = r
			}
		}
		a[c], a[best] = a[best], a[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	x := make([]float64, n)
	for c := n - 1; c >= 0; c-- {
		x[c] = a[c][n]
		for j := c + 1; j < n; j++ {
			x[c] -= a[c][j] * x[j]
		}
		x[c] /= a[c][c]
	}
	return x
}

func dot(w [fitFeatures]float64, x *[fitFeatures]float64) float64 {
	sum := 0.0
	for j := range w {
		sum += w[j] * x[j]
	}
	return sum
}

// pairLoss is the mean log loss of predicting, for every two seats of phase p's
// positions, which ends ahead (the logistic of the difference of score over soft),
// and the share of pairs whose order score got right; ties left out.
func pairLoss(samples []fitSample, p int, score func(*[fitFeatures]float64) float64, soft float64) (loss, right float64, n int) {
	for _, x := range samples {
		if x.phase != p {
			continue
		}
		for s := range kardinal.MaxPlayers {
			for o := s + 1; o < kardinal.MaxPlayers; o++ {
				if x.y[s] == x.y[o] {
					continue
				}
				d := score(&x.x[s]) - score(&x.x[o])
				q := 1 / (1 + math.Exp(-d/soft))
				if x.y[s] < x.y[o] {
					q, d = 1-q, -d
				}
				loss -= math.Log(max(q, 1e-12))
				if d > 0 {
					right++
				}
				n++
			}
		}
	}
	return loss / float64(n), right / float64(n), n
}

// TestFitEvaluationRanksAsTheModel: eval=fit and eval=fit2 install, at five players,
// an evaluation that rewards each seat by their fitted models' prediction compared at
// the phase's temperature, which orders two seats of a real position as the model does
// where eval=potential (KardinalPotential at the table's temperature, 5) orders them
// the other way; the five-player table's default is eval=fit2, the four-player table's
// no fit, and a finished game is scored alike.
func TestFitEvaluationRanksAsTheModel(t *testing.T) {
	for _, tc := range []struct {
		setting string
		models  *[fitPhases]fitted
		def     bool
	}{
		{"eval=fit", &kardinalQuarters, false},
		{"eval=fit2", &kardinalFitted, true},
	} {
		t.Run(tc.setting, func(t *testing.T) { ranksAsTheModel(t, tc.setting, tc.models, tc.def) })
	}
	def, err := ParseSettings("")
	require.NoError(t, err)
	require.Equal(t, 2, def.withTable(kardinal.Name, 5).Fit, "eval=fit2 is the five-player table's default")
	require.Zero(t, def.withTable(kardinal.Name, 4).Fit, "and no other table's")
	_, err = ParseSettings("eval=fitted")
	require.ErrorContains(t, err, "is potential, projection, fit or fit2")
	plain, err := ParseSettings("eval=projection")
	require.NoError(t, err)
	require.True(t, plain.Plain && plain.Fit < 0)
}

// ranksAsTheModel plays a five-player game of the heuristic bot and checks at each
// position that setting evaluates as models predict (and as the table's default does
// where def, else not everywhere).
func ranksAsTheModel(t *testing.T, setting string, models *[fitPhases]fitted, def bool) {
	fit, err := ParseSettings(setting)
	require.NoError(t, err)
	require.Positive(t, fit.Fit)
	pot, err := ParseSettings("eval=potential")
	require.NoError(t, err)
	require.Negative(t, pot.Fit)
	dflt, err := ParseSettings("")
	require.NoError(t, err)
	fitEval := fit.withTable(kardinal.Name, 5).Evaluate
	defEval := dflt.withTable(kardinal.Name, 5).Evaluate
	potEval := pot.withTable(kardinal.Name, 5).Evaluate
	potential := KardinalPotential(5)
	n := kardinal.MaxPlayers
	got, want := make([]float64, n), make([]float64, n)
	g, err := kardinal.New(7, n)
	require.NoError(t, err)
	h := heuristic.New()
	flips, differ := 0, 0
	for !g.Terminal() {
		var f [engine.MaxSeats][fitFeatures]float64
		m := models[kardinalFeatures(g, &f)]
		var model, pot [engine.MaxSeats]float64
		for s := range n {
			model[s] = dot(m.coef, &f[s])
			pot[s] = f[s][fitProjected] + f[s][fitPart]
		}
		fitEval(g, got)
		softShare(model[:n], m.soft, want)
		require.InDeltaSlice(t, want, got, 1e-12, "%s is the model's prediction compared at its temperature", setting)
		defEval(g, got)
		if def {
			require.InDeltaSlice(t, want, got, 1e-12, "the five-player default is %s", setting)
		} else if !slices.EqualFunc(want, got, func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }) {
			differ++
		}
		potEval(g, got)
		potential(g, want)
		require.Equal(t, want, got, "eval=potential is KardinalPotential at 5")
		fitEval(g, want)
		for s := range n {
			for o := range n {
				if model[s] > model[o]+0.5 && pot[s] < pot[o]-0.5 {
					flips++
					require.Greater(t, want[s], want[o], "%s ranks as the model", setting)
					require.Less(t, got[s], got[o], "eval=potential ranks by the projection")
				}
			}
		}
		require.NoError(t, g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())))
	}
	require.Positive(t, flips, "no position where the model and the projection disagree")
	require.True(t, def || differ > 0, "%s is the default's evaluation everywhere", setting)
	fitEval(g, got)
	potEval(g, want)
	require.Equal(t, want, got, "a finished game is scored by its points")
}

// TestFitFeaturesReadTheMajoritiesAndTheHand: on every position of a five-player game
// of the heuristic bot, the features read in one pass are, to the last bit, those of
// ProjectedScores, potentialScores and contestedAlliances (the projection, the part
// credit, the contested alliances), and the features of the monastery majorities and
// of the hand are those counted here another way (each country's counts sorted, each
// card of a hand tried in turn), all relative to the table's mean; and somewhere in
// the game each of the latter sets two seats apart.
func TestFitFeaturesReadTheMajoritiesAndTheHand(t *testing.T) {
	n := kardinal.MaxPlayers
	g, err := kardinal.New(11, n)
	require.NoError(t, err)
	h := heuristic.New()
	var apart [fitFeatures]bool
	for !g.Terminal() {
		var f [engine.MaxSeats][fitFeatures]float64
		kardinalFeatures(g, &f)
		want := countedFeatures(g)
		for s := range n {
			for j := range fitAlone {
				require.Equal(t, want[s][j], f[s][j], "seat %d, feature %d", s, j)
			}
			for j := fitAlone; j < fitFeatures; j++ {
				require.InDelta(t, want[s][j], f[s][j], 1e-9, "seat %d, feature %d", s, j)
				apart[j] = apart[j] || math.Abs(f[s][j]-f[0][j]) > 1e-9
			}
		}
		require.NoError(t, g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())))
	}
	for j := fitAlone; j < fitFeatures; j++ {
		require.True(t, apart[j], "feature %d never told two seats apart", j)
	}
}

// countedFeatures reads g's features another way: the projection and the credits by
// the evaluations that compute them, the majorities and the hands of its seats from
// scratch; all relative to the table's mean.
func countedFeatures(g *kardinal.Game) (f [kardinal.MaxPlayers][fitFeatures]float64) {
	n := g.Players()
	tab := g.Table()
	var pts [kardinal.MaxPlayers]int
	var part, contested [kardinal.MaxPlayers]float64
	g.ProjectedScores(pts[:n])
	potentialScores(tab, g.Board(), pts[:n], part[:n])
	contestedAlliances(tab, g.Board(), 1, contested[:n])
	for s := range n {
		f[s][fitProjected] = float64(pts[s])
		f[s][fitPart] = part[s] - float64(pts[s])
		f[s][fitContested] = contested[s]
		for c := range kardinal.NumCountries {
			f[s][fitMonasteries] += float64(tab.Monasteries[c][s])
			f[s][fitAdvisors] += float64(tab.Advisors[c][s])
		}
	}
	for s := g.ToMove(); s != g.Start(); s = (s + 1) % n {
		f[s][fitTurn] = 1
	}
	for c := range kardinal.NumCountries {
		counts := slices.Clone(tab.Monasteries[c][:n])
		slices.Sort(counts)
		slices.Reverse(counts)
		for s := range n {
			m := tab.Monasteries[c][s]
			switch {
			case m == 0:
			case m == counts[0] && m > counts[1]:
				f[s][fitAlone]++
				if m == counts[1]+1 {
					f[s][fitByOne]++
				}
			case m == counts[0]:
				f[s][fitShared]++
			case m+1 == counts[0]:
				f[s][fitBehind]++
			}
		}
	}
	for s := range n {
		hand := g.Hand(s)
		for kd, held := range hand {
			if held >= 2 {
				f[s][fitPairs]++
			}
			for range held {
				f[s][fitHand]++
				for _, c := range kardinal.Kind(kd).Countries() {
					if tab.AdvisorsIn(c) < tab.AdvisorCap(c) {
						f[s][fitHandAdvisor]++
					}
					if tab.FreeSpaces(g.Board(), c) > 0 && gainsOrKeepsTheLead(tab, c, s, n) {
						f[s][fitHandLead]++
					}
				}
			}
		}
	}
	for j := range fitFeatures {
		mean := 0.0
		for s := range n {
			mean += f[s][j] / float64(n)
		}
		for s := range n {
			f[s][j] -= mean
		}
	}
	return f
}

// gainsOrKeepsTheLead reports whether one monastery more in c puts seat s level with
// every other seat there or ahead.
func gainsOrKeepsTheLead(tab *kardinal.Table, c kardinal.Country, s, n int) bool {
	for o := range n {
		if o != s && tab.Monasteries[c][o] > tab.Monasteries[c][s]+1 {
			return false
		}
	}
	return true
}

// TestFittedModelPredictsHeldOutGames: on 40 five-player games of the heuristic bot the
// fits never saw (deals 8000-8039), at the states 16 placer decisions from every 20th
// position (as the fits read them), eval=fit's and eval=fit2's models predict which of
// two seats ends ahead better than KardinalPotential at 5 does, in the first half of
// the game and in the second, and eval=fit2's better than eval=fit's over the game
// (about as well in the first half, better in the second): weights that do not belong
// to their features, or a phase's model read for another's, would not.
func TestFittedModelPredictsHeldOutGames(t *testing.T) {
	t.Setenv("ISMCTS_FIT_PLAYOUT", "16")
	var samples []fitSample
	for d := fitFirstDeal - 40; d < fitFirstDeal; d++ {
		samples = append(samples, fitGame(t, uint64(1000+d), d)...)
	}
	potential := func(x *[fitFeatures]float64) float64 { return x[fitProjected] + x[fitPart] }
	var first, second float64 // eval=fit's and eval=fit2's over the game
	for half := range 2 {
		var quarters, fitted, pot float64
		for p := half * fitPhases / 2; p < (half+1)*fitPhases/2; p++ {
			l, _, k := pairLoss(samples, p, potential, 5)
			pot += l * float64(k)
			quarters += modelLoss(samples, p, &kardinalQuarters[p]) * float64(k)
			fitted += modelLoss(samples, p, &kardinalFitted[p]) * float64(k)
		}
		t.Logf("half %d: eval=fit2 %.1f, eval=fit %.1f, potential %.1f (summed log loss)", half, fitted, quarters, pot)
		require.Less(t, quarters, pot, "eval=fit, half %d of the game", half)
		require.Less(t, fitted, pot, "eval=fit2, half %d of the game", half)
		first, second = first+quarters, second+fitted
	}
	require.Less(t, second, first, "eval=fit2 against eval=fit")
}

// modelLoss is pairLoss of a fitted model on phase p's samples.
func modelLoss(samples []fitSample, p int, m *fitted) float64 {
	l, _, _ := pairLoss(samples, p, func(x *[fitFeatures]float64) float64 { return dot(m.coef, x) }, m.soft)
	return l
}
