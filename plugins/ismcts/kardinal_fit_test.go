package ismcts

import (
	"fmt"
	"math"
	"os"
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
	var a [fitFeatures][fitFeatures + 1]float64
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
	m := fitted{coef: solve(a)}
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

// solve solves the augmented system a by Gaussian elimination with partial pivoting.
func solve(a [fitFeatures][fitFeatures + 1]float64) (x [fitFeatures]float64) {
	for c := range fitFeatures {
		best := c
		for r := c + 1; r < fitFeatures; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[best][c]) {
				best = r
			}
		}
		a[c], a[best] = a[best], a[c]
		for r := c + 1; r < fitFeatures; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j <= fitFeatures; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	for c := fitFeatures - 1; c >= 0; c-- {
		x[c] = a[c][fitFeatures]
		for j := c + 1; j < fitFeatures; j++ {
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

// TestFitEvaluationRanksAsTheModel: eval=fit installs, at five players, an evaluation
// that rewards each seat by the fitted model's prediction compared at its phase's
// temperature, which orders two seats of a real position as the model does where
// eval=potential (KardinalPotential at the table's temperature, 5) orders them the
// other way; the five-player table's default is the fit, the four-player table's is
// not, and a finished game is scored alike.
func TestFitEvaluationRanksAsTheModel(t *testing.T) {
	fit, err := ParseSettings("eval=fit")
	require.NoError(t, err)
	require.Positive(t, fit.Fit)
	pot, err := ParseSettings("eval=potential")
	require.NoError(t, err)
	require.Negative(t, pot.Fit)
	def, err := ParseSettings("")
	require.NoError(t, err)
	require.Positive(t, def.withTable(kardinal.Name, 5).Fit, "the fit is the five-player table's default")
	require.Zero(t, def.withTable(kardinal.Name, 4).Fit, "and no other table's")
	fitEval := fit.withTable(kardinal.Name, 5).Evaluate
	defEval := def.withTable(kardinal.Name, 5).Evaluate
	potEval := pot.withTable(kardinal.Name, 5).Evaluate
	potential := KardinalPotential(5)
	n := kardinal.MaxPlayers
	got, want := make([]float64, n), make([]float64, n)
	g, err := kardinal.New(7, n)
	require.NoError(t, err)
	h := heuristic.New()
	flips := 0
	for !g.Terminal() {
		var f [engine.MaxSeats][fitFeatures]float64
		m := kardinalFitted[kardinalFeatures(g, &f)]
		var model, pot [engine.MaxSeats]float64
		for s := range n {
			model[s] = dot(m.coef, &f[s])
			pot[s] = f[s][fitProjected] + f[s][fitPart]
		}
		fitEval(g, got)
		softShare(model[:n], m.soft, want)
		require.InDeltaSlice(t, want, got, 1e-12, "eval=fit is the model's prediction compared at its temperature")
		defEval(g, got)
		require.InDeltaSlice(t, want, got, 1e-12, "the five-player default is the fit")
		potEval(g, got)
		potential(g, want)
		require.Equal(t, want, got, "eval=potential is KardinalPotential at 5")
		fitEval(g, want)
		for s := range n {
			for o := range n {
				if model[s] > model[o]+0.5 && pot[s] < pot[o]-0.5 {
					flips++
					require.Greater(t, want[s], want[o], "eval=fit ranks as the model")
					require.Less(t, got[s], got[o], "eval=potential ranks by the projection")
				}
			}
		}
		require.NoError(t, g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())))
	}
	require.Positive(t, flips, "no position where the model and the projection disagree")
	fitEval(g, got)
	potEval(g, want)
	require.Equal(t, want, got, "a finished game is scored by its points")
	_, err = ParseSettings("eval=fitted")
	require.ErrorContains(t, err, "is potential, projection or fit")
	plain, err := ParseSettings("eval=projection")
	require.NoError(t, err)
	require.True(t, plain.Plain && plain.Fit < 0)
}
