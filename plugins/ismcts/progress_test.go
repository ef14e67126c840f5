package ismcts

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHandCreditIsFivePlayerIvanhoesDefault: five-player Ivanhoe credits the cards a
// seat holds in its cut-off evaluation by default, other tables do not, and hand=0
// turns it off there.
func TestHandCreditIsFivePlayerIvanhoesDefault(t *testing.T) {
	assert.Equal(t, 0.15, Config{}.withTable("ivanhoe", 5).Hand)
	for _, n := range []int{2, 3, 4} {
		assert.Zero(t, Config{}.withTable("ivanhoe", n).Hand, "%d players", n)
	}
	off, err := ParseSettings("hand=0")
	require.NoError(t, err)
	assert.Negative(t, off.withTable("ivanhoe", 5).Hand)
	_, err = ParseSettings("hand=-1")
	assert.ErrorContains(t, err, "between 0 and 10")
}

// TestProgressHoldingCreditsCards: in cut-off states of random five-player games, two
// seats with as many tokens, neither leading the tournament, score alike under
// Progress; with a hand credit the one holding more cards scores higher, and a
// finished game still gets its match score.
func TestProgressHoldingCreditsCards(t *testing.T) {
	plain, holding := Progress(1), ProgressHolding(1, 0.15)
	a, b := make([]float64, 5), make([]float64, 5)
	compared := 0
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := engine.New("ivanhoe", seed, 5)
		require.NoError(t, err)
		r := engine.NewRand(seed)
		for !g.Terminal() {
			x := g.(*ivanhoe.Game)
			plain(g, a)
			holding(g, b)
			lead := tournamentLeader(x)
			for s := 0; s < 5; s++ {
				for o := 0; o < 5; o++ {
					if s == lead || o == lead || x.Held(s) <= x.Held(o) || tokenCount(x, s) != tokenCount(x, o) {
						continue
					}
					assert.InDelta(t, a[s], a[o], 1e-12)
					assert.Greater(t, b[s], b[o], "seed %d: seat %d holds %d cards, seat %d %d", seed, s, x.Held(s), o, x.Held(o))
					compared++
				}
			}
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
		}
		holding(g, b)
		MatchScore(g, a)
		assert.Equal(t, a, b, "seed %d: the end gets the match score", seed)
	}
	assert.Greater(t, compared, 100)
}

func tokenCount(g *ivanhoe.Game, s int) int {
	n := 0
	for _, has := range g.Tokens(s) {
		if has {
			n++
		}
	}
	return n
}
