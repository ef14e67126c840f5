package ismcts

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/require"
)

// ninjasSample is one state where a cut-off play-out of two-player Ninjas stops: seat
// 0's features less seat 1's, and the outcome of the play-out from there for seat 0
// (1 a win, 0 a loss, one half a draw).
type ninjasSample struct {
	x ninjasVector
	y float64
}

type ninjasVector = [ninjasFeatures]float64

// ninjasFitSeed is the seed of the fit's first game: far from every deal's seed
// (TestMeasure's are 1000+deal, deals below 30,000).
const ninjasFitSeed = 900_000

// TestFitNinjasEvaluation is opt-in: ISMCTS_NINJAS_FIT=N plays N two-player games of
// the heuristic bot in-process (seeds from ninjasFitSeed) and, from every 4th of their
// positions, a play-out of the search's rollout (the heuristic, a tenth of its moves
// random) for ISMCTS_NINJAS_FIT_CUT decisions (default 10) and on to the next turn's
// first decision, as a cut-off play-out under eval=fit runs; there it records the
// features, plays on to the end and records who won. It fits ninjasFitted by logistic
// regression on the first four fifths of the games, checks it on the rest against
// Progress (the gems' difference at temperature 1), and prints the weights to paste
// into ninjas_fit.go:
//
//	ISMCTS_NINJAS_FIT=20000 nice -n 10 go test ./plugins/ismcts -run TestFitNinjasEvaluation -v
func TestFitNinjasEvaluation(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ISMCTS_NINJAS_FIT"))
	if games <= 0 {
		t.Skip("set ISMCTS_NINJAS_FIT=N (games) to fit two-player Ninjas' cut-off evaluation")
	}
	cut := 10
	if c, err := strconv.Atoi(os.Getenv("ISMCTS_NINJAS_FIT_CUT")); err == nil {
		cut = c
	}
	var train, test []ninjasSample
	decisions := 0
	for i := range games {
		s, n := ninjasFitGame(t, ninjasFitSeed+uint64(i), cut)
		decisions += n
		if i < games*4/5 {
			train = append(train, s...)
		} else {
			test = append(test, s...)
		}
	}
	w := fitLogistic(train, 1)
	var out strings.Builder
	fmt.Fprintf(&out, "// %d states of %d games (seeds %d-%d), cut %d\n", len(train), games*4/5, ninjasFitSeed, ninjasFitSeed+games*4/5-1, cut)
	out.WriteString("var ninjasFitted = [ninjasFeatures]float64{")
	for j, c := range w {
		if j > 0 {
			out.WriteString(", ")
		}
		fmt.Fprintf(&out, "%.4f", c)
	}
	out.WriteString("}\n")
	t.Logf("%.1f decisions a game\n%s", float64(decisions)/float64(games), out.String())
	fl, fa := logLoss(test, func(x *ninjasVector) float64 { return dotN(&w, x) })
	pl, pa := logLoss(test, func(x *ninjasVector) float64 { return x[nfGems] })
	t.Logf("%d held-out states: fitted log loss %.4f, winner right %.3f; Progress (soft 1) %.4f, %.3f", len(test), fl, fa, pl, pa)
}

// ninjasFitGame plays one two-player game of the heuristic bot from seed and returns
// the states cut-off play-outs from every 4th of its positions stop at, each with the
// outcome of playing on from there, and the game's decisions.
func ninjasFitGame(t *testing.T, seed uint64, cut int) ([]ninjasSample, int) {
	g, err := ninjas.New(seed, 2)
	require.NoError(t, err)
	rollout := epsilonGreedy(heuristic.New(), DefaultEpsilon, DefaultEpsilon, nil)
	r := engine.NewRand(seed)
	h := heuristic.New()
	var views viewBuffer
	var samples []ninjasSample
	for !g.Terminal() {
		if g.Decisions()%4 == int(seed%4) {
			if s, ok := cutOffOutcome(g, rollout, cut, &r); ok {
				samples = append(samples, s)
			}
		}
		require.NoError(t, g.Apply(h.Choose(views.of(g, g.ToMove()), nil, g.Options())))
	}
	return samples, g.Decisions()
}

// cutOffOutcome plays a copy of g on with rollout for cut decisions and then to the
// next turn's first decision, reads the features there and plays on to the end; ok is
// false where the game ended before the cut-off.
func cutOffOutcome(g *ninjas.Game, rollout Rollout, cut int, r *engine.Rand) (s ninjasSample, ok bool) {
	c, ok := cutOffState(g, rollout, cut, r)
	if !ok {
		return s, false
	}
	ninjasDifference(c, &s.x)
	s.y = stateValue(c, rollout, 1, r)
	return s, true
}

// fitLogistic fits the weights of a logistic regression of y on x without an
// intercept (equal features, even chances) by Newton's method, with a ridge of
// lambda for features that rarely differ.
func fitLogistic(samples []ninjasSample, lambda float64) (w ninjasVector) {
	for range 12 {
		a := system(ninjasFeatures)
		for i := range ninjasFeatures {
			a[i][i] = lambda
			a[i][ninjasFeatures] = -lambda * w[i]
		}
		for _, s := range samples {
			p := 1 / (1 + math.Exp(-dotN(&w, &s.x)))
			for i := range ninjasFeatures {
				for j := range ninjasFeatures {
					a[i][j] += p * (1 - p) * s.x[i] * s.x[j]
				}
				a[i][ninjasFeatures] += (s.y - p) * s.x[i]
			}
		}
		step := solve(a)
		for i := range w {
			w[i] += step[i]
		}
	}
	return w
}

func dotN(w, x *ninjasVector) float64 {
	sum := 0.0
	for j := range w {
		sum += w[j] * x[j]
	}
	return sum
}

// logLoss is the mean log loss of predicting the outcomes of samples by the logistic
// of score, and the share of decided outcomes whose winner it favoured.
func logLoss(samples []ninjasSample, score func(*ninjasVector) float64) (loss, right float64) {
	decided := 0
	for _, s := range samples {
		z := score(&s.x)
		p := 1 / (1 + math.Exp(-z))
		loss -= s.y*math.Log(max(p, 1e-12)) + (1-s.y)*math.Log(max(1-p, 1e-12))
		if s.y != 0.5 {
			decided++
			if (z > 0) == (s.y == 1) && z != 0 {
				right++
			}
		}
	}
	return loss / float64(len(samples)), right / float64(decided)
}

// TestNinjasFitPredictsPlayouts: on states of games the fit never saw (400 games of
// the heuristic bot, seeds past the fit's), the fitted model predicts the outcomes of
// the play-outs from where cut-off play-outs stop about as well as a model refitted to
// those very states, and far better than even chances or Progress (the gems alone at
// temperature 1): weights that were wrong, stale or fitted to other states would not.
func TestNinjasFitPredictsPlayouts(t *testing.T) {
	var samples []ninjasSample
	for i := range 400 {
		s, _ := ninjasFitGame(t, ninjasFitSeed+50_000+uint64(i), 10)
		samples = append(samples, s...)
	}
	require.Greater(t, len(samples), 2000)
	fitted, right := logLoss(samples, func(x *ninjasVector) float64 { return dotN(&ninjasFitted, x) })
	refit := fitLogistic(samples, 1)
	best, _ := logLoss(samples, func(x *ninjasVector) float64 { return dotN(&refit, x) })
	progress, _ := logLoss(samples, func(x *ninjasVector) float64 { return x[nfGems] })
	t.Logf("%d states: log loss fitted %.4f (winner right %.3f), refitted %.4f, Progress %.4f", len(samples), fitted, right, best, progress)
	require.Less(t, fitted, best+0.01, "the fitted model is as good as one refitted to fresh states")
	require.Less(t, fitted, math.Ln2-0.15, "far better than even chances")
	require.Less(t, fitted, progress-0.3, "far better than Progress")
	require.Greater(t, right, 0.7)
}

// TestFitIsTwoPlayerNinjasEvaluation: eval=fit in two-player Ninjas cuts play-outs
// off (at ninjasCutoff decisions unless cutoff says otherwise) and scores them by the
// fitted model (NinjasFit); the table's default plays them to the end, as before;
// eval=potential with a cutoff scores them by Progress, and other tables keep Progress.
// A search with eval=fit stops every play-out that does not end the game at a turn's
// first decision, at least cutoff decisions in.
func TestFitIsTwoPlayerNinjasEvaluation(t *testing.T) {
	def := Config{}.withTable("ninjas", 2)
	require.Zero(t, def.Fit, "off by default")
	require.LessOrEqual(t, def.Cutoff, 0, "the default plays to the end")
	fit, err := ParseSettings("eval=fit")
	require.NoError(t, err)
	require.Equal(t, ninjasCutoff, fit.withTable("ninjas", 2).Cutoff)
	given, err := ParseSettings("cutoff=10,eval=fit")
	require.NoError(t, err)
	off, err := ParseSettings("cutoff=10,eval=potential")
	require.NoError(t, err)
	three := given.withTable("ninjas", 3).Evaluate
	progress := Progress(progressSoft)
	g, err := ninjas.New(11, 2)
	require.NoError(t, err)
	g3, err := ninjas.New(11, 3)
	require.NoError(t, err)
	got, want := make([]float64, 3), make([]float64, 3)
	three(g3, got)
	progress(g3, want)
	require.Equal(t, want, got, "three players keep Progress")
	h := heuristic.New()
	differ := 0
	for !g.Terminal() {
		p := ninjasWinChance(g, &ninjasFitted)
		for _, e := range []Evaluate{fit.withTable("ninjas", 2).Evaluate, given.withTable("ninjas", 2).Evaluate} {
			e(g, got)
			require.InDeltaSlice(t, []float64{p, 1 - p}, got[:2], 1e-12, "the fitted model's chance")
		}
		off.withTable("ninjas", 2).Evaluate(g, got)
		progress(g, want)
		require.Equal(t, want[:2], got[:2], "eval=potential: Progress")
		if math.Abs(want[0]-p) > 0.1 {
			differ++
		}
		require.NoError(t, g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())))
	}
	require.Positive(t, differ, "the model and Progress never differ")
	fit.withTable("ninjas", 2).Evaluate(g, got)
	MatchScore(g, want)
	require.Equal(t, want[:2], got[:2], "a finished game gets its match score")

	fit.Iterations = 300
	s, err := NewSearch("ninjas", nil, 3, fit)
	require.NoError(t, err)
	s.resolve(2)
	g2 := midGame(t, "ninjas", 2, 6)
	fitted, cut := s.cfg.Evaluate, 0
	s.cfg.Evaluate = func(x engine.Game, reward []float64) {
		if !x.Terminal() {
			cut++
			require.Equal(t, ninjas.PhaseAction, x.(*ninjas.Game).Phase(), "a play-out stopped mid-turn")
			require.GreaterOrEqual(t, x.(*ninjas.Game).Decisions()-g2.(*ninjas.Game).Decisions(), ninjasCutoff)
		}
		fitted(x, reward)
	}
	seat := g2.ToMove()
	_, err = s.Choose(g2.View(seat), engine.EventsFor(nil, g2.Log(), seat, 0), g2.Options(), time.Time{})
	require.NoError(t, err)
	require.Greater(t, cut, 200, "play-outs cut off")
}

// TestNinjasFitAgainstValues is opt-in: ISMCTS_NINJAS_VALUES=N plays N two-player
// games of the heuristic bot (seeds from ninjasFitSeed+70,000, past the fit's and
// TestNinjasFitPredictsPlayouts'), and at every 8th position plays the rollout on to
// where a cut-off play-out stops, as the fit's data does. There it estimates the
// state's value, seat 0's chance to win the play-out, by 64 play-outs, twice: with the
// pile as it lies, and with a fresh order of the pile for each (the value a search
// averages its play-outs to, its samples' piles being random). It logs the fitted
// model's mean squared error to each beside the variance of a single play-out's
// outcome, the noise a cut-off evaluation saves: the model's error is fixed for each
// state and more iterations do not average it out, so it pays only where that noise
// is what limits the search.
//
//	ISMCTS_NINJAS_VALUES=300 nice -n 10 go test ./plugins/ismcts -run TestNinjasFitAgainstValues -v
func TestNinjasFitAgainstValues(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ISMCTS_NINJAS_VALUES"))
	if games <= 0 {
		t.Skip("set ISMCTS_NINJAS_VALUES=N (games)")
	}
	rollout := epsilonGreedy(heuristic.New(), DefaultEpsilon, DefaultEpsilon, nil)
	h := heuristic.New()
	var views viewBuffer
	var asLies, shuffled valueError
	for i := range games {
		seed := ninjasFitSeed + 70_000 + uint64(i)
		g, err := ninjas.New(seed, 2)
		require.NoError(t, err)
		r := engine.NewRand(seed)
		for !g.Terminal() {
			if g.Decisions()%8 == 3 {
				if c, ok := cutOffState(g, rollout, ninjasCutoff, &r); ok {
					p := ninjasWinChance(c, &ninjasFitted)
					asLies.add(p, stateValue(c, rollout, 64, &r))
					v := 0.0
					for range 64 {
						x := c.Clone().(*ninjas.Game)
						shufflePile(x, &r)
						v += stateValue(x, rollout, 1, &r) / 64
					}
					shuffled.add(p, v)
				}
			}
			require.NoError(t, g.Apply(h.Choose(views.of(g, g.ToMove()), nil, g.Options())))
		}
	}
	for _, e := range []struct {
		name string
		*valueError
	}{{"the pile as it lies", &asLies}, {"the pile shuffled", &shuffled}} {
		t.Logf("%s, %.0f states: the fitted model's mean squared error to the value %.4f; one play-out's variance %.4f; the values' spread about 1/2 %.4f",
			e.name, e.n, e.model/e.n, e.noise/e.n, e.spread/e.n)
	}
}

// valueError sums a model's squared errors to states' values v, the variance
// v(1-v) of one play-out's outcome there, and the values' spread about one half.
type valueError struct{ model, noise, spread, n float64 }

func (e *valueError) add(p, v float64) {
	e.model += (p - v) * (p - v)
	e.noise += v * (1 - v)
	e.spread += (v - 0.5) * (v - 0.5)
	e.n++
}

// cutOffState is a copy of g played on by rollout as a cut-off play-out under
// eval=fit is (cut decisions, then to the next turn's first decision); ok is false
// where the game ended first.
func cutOffState(g *ninjas.Game, rollout Rollout, cut int, r *engine.Rand) (*ninjas.Game, bool) {
	c := g.Clone().(*ninjas.Game)
	for d := 0; !c.Terminal() && (d < cut || !ninjasAtTurnStart(c)); d++ {
		if err := c.Apply(rollout(c, r)); err != nil {
			panic(err)
		}
	}
	return c, !c.Terminal()
}

// stateValue is seat 0's mean outcome over k play-outs of rollout from g.
func stateValue(g *ninjas.Game, rollout Rollout, k int, r *engine.Rand) float64 {
	v := 0.0
	for range k {
		x := g.Clone().(*ninjas.Game)
		for !x.Terminal() {
			if err := x.Apply(rollout(x, r)); err != nil {
				panic(err)
			}
		}
		switch x.Winner() {
		case 0:
			v++
		case 1:
		default:
			v += 0.5
		}
	}
	return v / float64(k)
}
