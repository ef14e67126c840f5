package ismcts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDrawnInfersAcrossOwnDraws: with drawn=yes two-player Ninjas infers at the
// decisions after its own draws too (the first of each turn, after the other seat's
// whole turn), every replay kept there ends in the seat's present view (inferOnGames
// checks each sample), and at the same decisions the kept replays place more of the
// other seat's cards right than the present sampler does (+0.30 cards a sample on these
// seeds, +0.24 without drawn=yes). warm=0 in these tests: the games those figures
// were measured on (warm, the default since, plays others).
func TestDrawnInfersAcrossOwnDraws(t *testing.T) {
	without := inferOnGames(t, "iterations=100,infer=8,model=ucb,drawn=no,warm=0", 2)
	with := inferOnGames(t, "iterations=100,infer=8,model=ucb,drawn=yes,warm=0", 2)
	require.Greater(t, with.decisions, 1.5*without.decisions, "decisions with moves to replay")
	require.Positive(t, with.kept)
	assert.Greater(t, with.paired, 0.15, "cards placed right, a kept replay against a present sample at the same decision")
}

// TestDrawnIsTwoPlayerNinjasDefault: two-player Ninjas infers across its own draws
// unless the caller says drawn=no, and no other table does; a search with the
// defaults finds moves to replay at as many decisions as with drawn=yes.
func TestDrawnIsTwoPlayerNinjasDefault(t *testing.T) {
	assert.Equal(t, 1, Config{}.withTable("ninjas", 2).Drawn)
	for _, n := range []int{3, 4, 5, 6} {
		assert.Zero(t, Config{}.withTable("ninjas", n).Drawn, "%d players", n)
	}
	off, err := ParseSettings("drawn=no")
	require.NoError(t, err)
	assert.Equal(t, -1, off.withTable("ninjas", 2).Drawn)
	without := inferOnGames(t, "iterations=100,infer=8,model=ucb,drawn=no,warm=0", 2)
	byDefault := inferOnGames(t, "iterations=100,infer=8,model=ucb,warm=0", 2)
	require.Greater(t, byDefault.decisions, 1.5*without.decisions, "decisions with moves to replay")
}
