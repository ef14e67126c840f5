package heuristic

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/arena-games/arena/arena/stats"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// versusRandom plays deals of game in-process: every deal once with the heuristic in
// each seat, the other seats random. It returns the heuristic's score in every game (the
// share of opponents it finished ahead of, ties half, as the arena scores a seat: 0.5 is
// an equal) and how many games it won.
func versusRandom(t testing.TB, game string, players, deals int, seed uint64) (scores []float64, wins int) {
	h := New()
	for d := 0; d < deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := engine.New(game, seed+uint64(d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = random.New(seed*1000 + uint64(d*10+s))
			}
			seats[seat] = h
			require.NoError(t, engine.PlayOut(g, seats))
			res := g.Result()
			require.False(t, res.Adjudicated, "%s deal %d: the game must end by its rules", game, d)
			beaten := 0.0
			for o, p := range res.Place {
				switch {
				case o == seat:
				case p > res.Place[seat]:
					beaten++
				case p == res.Place[seat]:
					beaten += 0.5
				}
			}
			scores = append(scores, beaten/float64(players-1))
			if res.Place[seat] == 0 {
				wins++
			}
		}
	}
	return scores, wins
}

// summary is the mean score with its 95% Wilson interval over the games: a game's score
// lies in [0, 1], so its variance is at most a coin's with that mean and the interval is
// conservative, and unlike the normal one it stays honest near a rate of 1.
func summary(scores []float64, wins int) (mean, lo, hi float64, text string) {
	for _, x := range scores {
		mean += x
	}
	mean /= float64(len(scores))
	lo, hi = stats.Wilson(mean, float64(len(scores)))
	return mean, lo, hi, fmt.Sprintf("%d games: score %.4f, 95%% CI [%.4f, %.4f]; wins %.1f%%",
		len(scores), mean, lo, hi, 100*float64(wins)/float64(len(scores)))
}

// TestHeuristicBeatsRandom: against random players the heuristic's score must clear
// what an equal player scores (0.5) by a wide margin in every game and table size.
func TestHeuristicBeatsRandom(t *testing.T) {
	for _, tc := range []struct {
		game           string
		players, deals int
		minLow         float64
	}{
		{"ivanhoe", 2, 100, 0.9}, {"ivanhoe", 4, 40, 0.9},
		{"kardinal", 3, 40, 0.8}, {"kardinal", 4, 30, 0.8}, {"kardinal", 5, 24, 0.8},
		{"ninjas", 2, 100, 0.7}, {"ninjas", 3, 40, 0.7}, {"ninjas", 4, 30, 0.7}, {"ninjas", 6, 20, 0.7},
	} {
		t.Run(fmt.Sprintf("%s with %d players", tc.game, tc.players), func(t *testing.T) {
			_, lo, _, text := summary(versusRandom(t, tc.game, tc.players, tc.deals, 1))
			t.Log(text)
			assert.Greater(t, lo, tc.minLow, "the heuristic must clearly beat random")
		})
	}
}

// TestMeasure is the long measurement behind docs/performance.md's figures, run on demand:
//
//	ARENA_MEASURE=1000 go test ./plugins/heuristic -run TestMeasure -v
//
// It plays about that many games for every game and table size.
func TestMeasure(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARENA_MEASURE"))
	if n <= 0 {
		t.Skip("set ARENA_MEASURE=games to measure")
	}
	for _, game := range []string{"ivanhoe", "kardinal", "ninjas"} {
		spec, err := engine.Lookup(game)
		require.NoError(t, err)
		var all []float64
		allWins := 0
		for players := spec.MinPlayers; players <= spec.MaxPlayers; players++ {
			s, w := versusRandom(t, game, players, (n+players-1)/players, 1_000_003)
			_, _, _, text := summary(s, w)
			t.Logf("%s, 1 heuristic vs %d random: %s", game, players-1, text)
			all, allWins = append(all, s...), allWins+w
		}
		_, _, _, text := summary(all, allWins)
		t.Logf("%s, all tables: %s", game, text)
	}
}
