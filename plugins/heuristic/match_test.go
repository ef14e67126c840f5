package heuristic

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/require"
)

// duel plays deals of game against random, the heuristic in every seat in turn (the
// others random), and returns the heuristic's mean score, its standard error and the
// number of games. A game scores 1 for a win, 0 for a loss and a share for a tie for
// first.
func duel(t testing.TB, game string, players, deals int) (mean float64, n int) {
	h := New()
	var sum float64
	for d := 0; d < deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := engine.New(game, uint64(d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = random.New(uint64(d*31 + s))
			}
			seats[seat] = h
			require.NoError(t, engine.PlayOut(g, seats))
			w := g.Result().Winners()
			x := 0.0
			for _, s := range w {
				if s == seat {
					x = 1 / float64(len(w))
				}
			}
			sum += x
			n++
		}
	}
	return sum / float64(n), n
}

// wilson is the 95% Wilson score interval of a proportion p over n trials: unlike the
// normal approximation it stays honest at rates near 0 or 1.
func wilson(p float64, n int) (lo, hi float64) {
	const z = 1.959964
	nf := float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return centre - half, centre + half
}

// TestIvanhoeHeuristicBeatsRandom: against random players the heuristic must win far
// more than its fair share (1/players) of the games.
func TestIvanhoeHeuristicBeatsRandom(t *testing.T) {
	deals := 100
	if s := os.Getenv("ARENA_DUEL_DEALS"); s != "" {
		deals, _ = strconv.Atoi(s) // e.g. ARENA_DUEL_DEALS=500 for the figures in the README
	}
	for _, players := range []int{2, 4} {
		mean, n := duel(t, "ivanhoe", players, deals)
		lo, hi := wilson(mean, n)
		t.Logf("ivanhoe, %d players: heuristic wins %.3f (95%% CI %.3f-%.3f) of %d games, fair share %.3f",
			players, mean, lo, hi, n, 1/float64(players))
		require.Greater(t, lo, 1.5/float64(players), "the heuristic must clearly beat random")
	}
}
