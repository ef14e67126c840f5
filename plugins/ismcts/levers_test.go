package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTempoCreditsTheSeatsStillToMove: in states of random five-player games, the
// tempo credit raises the reward of every seat with a turn still to come in the round
// (from the seat to move up to the start player) and lowers the others', and a
// finished game still gets its points alone.
func TestTempoCreditsTheSeatsStillToMove(t *testing.T) {
	plain, tempo := KardinalPotential(5), KardinalTempo(5, 4)
	a, b := make([]float64, 5), make([]float64, 5)
	compared := 0
	for seed := uint64(1); seed <= 10; seed++ {
		g, err := engine.New("kardinal", seed, 5)
		require.NoError(t, err)
		k, r := g.(*kardinal.Game), engine.NewRand(seed)
		for {
			plain(g, a)
			tempo(g, b)
			if g.Terminal() {
				assert.Equal(t, a, b, "a finished game")
				break
			}
			toCome := map[int]bool{}
			for s := k.ToMove(); s != k.Start(); s = (s + 1) % 5 {
				toCome[s] = true
			}
			for s := 0; s < 5 && len(toCome) > 0; s++ {
				if toCome[s] {
					assert.Greater(t, b[s], a[s], "seat %d has a turn to come", s)
				} else {
					assert.Less(t, b[s], a[s], "seat %d has moved this round", s)
				}
				compared++
			}
			require.NoError(t, g.Apply(KardinalPlacer(g, &r)))
		}
	}
	assert.Greater(t, compared, 1000)
	off, err := ParseSettings("tempo=0")
	require.NoError(t, err)
	assert.Negative(t, off.Tempo)
	for _, bad := range []string{"tempo=-1", "tempo=51", "tempo=NaN", "hand=NaN"} {
		_, err = ParseSettings(bad)
		assert.ErrorContains(t, err, "must be between 0 and", bad)
	}
}

// phaseState is a five-player Kardinal game played by the heuristic to a decision of
// phase with a choice (PhaseRefill: which cards to take, K6).
func phaseState(t *testing.T, phase kardinal.Phase) *kardinal.Game {
	g := midGame(t, "kardinal", 5, 20).(*kardinal.Game)
	h := heuristic.New()
	for g.SeatView(g.ToMove()).Phase != phase || len(g.Options()) < 2 {
		require.False(t, g.Terminal())
		require.NoError(t, g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())))
	}
	return g
}

// TestTakesByTheHeuristic: with takes=heuristic a Kardinal refill is answered with the
// heuristic's choice and no search; by default it is searched, and a placement is
// searched either way.
func TestTakesByTheHeuristic(t *testing.T) {
	g := phaseState(t, kardinal.PhaseRefill)
	seat := g.ToMove()
	view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
	for _, tc := range []struct {
		settings string
		searched bool
	}{{"iterations=300,takes=heuristic", false}, {"iterations=300", true}, {"iterations=300,takes=search", true}} {
		cfg, err := ParseSettings(tc.settings)
		require.NoError(t, err)
		p, err := New("kardinal", 1, cfg)
		require.NoError(t, err)
		i := p.Choose(view, events, g.Options())
		if tc.searched {
			assert.Equal(t, 300, p.Iterations(), tc.settings)
			continue
		}
		assert.Zero(t, p.Iterations(), tc.settings)
		assert.Equal(t, heuristic.New().Choose(view, events, g.Options()), i, tc.settings)
	}
	placing := phaseState(t, kardinal.PhaseTurn)
	cfg, _ := ParseSettings("iterations=300,takes=heuristic")
	p, err := New("kardinal", 1, cfg)
	require.NoError(t, err)
	s := placing.ToMove()
	p.Choose(placing.View(s), engine.EventsFor(nil, placing.Log(), s, 0), placing.Options())
	assert.Equal(t, 300, p.Iterations())
}

// TestTurnsStopPlayOutsWhereATurnBegins: with turns=yes every Kardinal play-out cut off
// stops at the start of a seat's turn (no piece placed, no card played); without it
// many stop inside a turn.
func TestTurnsStopPlayOutsWhereATurnBegins(t *testing.T) {
	g := midGame(t, "kardinal", 5, 20)
	seat := g.ToMove()
	view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
	for _, turns := range []int{1, -1} {
		inside, ends := 0, 0
		cfg := Config{Iterations: 300, Cutoff: 16, Turns: turns, Evaluate: func(g engine.Game, reward []float64) {
			v := g.(*kardinal.Game).SeatView(0)
			ends++
			if !g.Terminal() && (v.Phase != kardinal.PhaseTurn || v.TurnPieces > 0 || v.TurnCards > 0) {
				inside++
			}
			KardinalPotential(5)(g, reward)
		}}
		s, err := NewSearch("kardinal", nil, 1, cfg)
		require.NoError(t, err)
		_, err = s.Choose(view, events, g.Options(), time.Time{})
		require.NoError(t, err)
		require.Equal(t, 300, ends)
		if turns > 0 {
			assert.Zero(t, inside, "play-outs stopped inside a turn")
		} else {
			assert.Greater(t, inside, 60, "play-outs stopped inside a turn")
		}
	}
}

// TestFinalByValue: the answer by value is the best mean among the root's children
// visited at least half as often as the most visited; by visits, the most visited.
func TestFinalByValue(t *testing.T) {
	var tr tree
	tr.reset()
	opts := []engine.Option{{Kind: 1, A: 0}, {Kind: 1, A: 1}, {Kind: 1, A: 2}}
	for i, n := range []struct {
		visits int32
		reward float64
	}{{100, 50}, {60, 40}, {40, 39}} { // means 0.5, 0.67, 0.98 (the last too rarely visited)
		ch := tr.add(0, opts[i], 0)
		tr.nodes[ch].visits, tr.nodes[ch].reward = n.visits, n.reward
	}
	assert.Equal(t, 0, tr.best(opts, false))
	assert.Equal(t, 1, tr.best(opts, true))
}

// TestCoolingFallsFromStartToEnd: KardinalCooling's temperature is 2t-late where no
// card has been drawn yet, late once the game is over, and t throughout when late is t.
func TestCoolingFallsFromStartToEnd(t *testing.T) {
	a, b := make([]float64, 5), make([]float64, 5)
	g, err := engine.New("kardinal", 3, 5)
	require.NoError(t, err)
	KardinalCooling(5, 3)(g, a)
	KardinalPotential(7)(g, b)
	assert.InDeltaSlice(t, b, a, 1e-12, "at the start")
	r := engine.NewRand(3)
	for !g.Terminal() {
		KardinalCooling(5, 5)(g, a)
		KardinalPotential(5)(g, b)
		require.InDeltaSlice(t, b, a, 1e-12)
		require.NoError(t, g.Apply(KardinalPlacer(g, &r)))
	}
	var pts [5]int
	g.(*kardinal.Game).ProjectedScores(pts[:])
	KardinalCooling(5, 3)(g, a)
	SoftShareBeaten(pts[:], 3, b)
	assert.InDeltaSlice(t, b, a, 1e-12, "at the end")
}
