package kardinal

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The board section of the rulings (amended 2026-11-23): alliance spaces sit on land and
// sea borders, so a board may have an alliance with no road over it and a road across a
// border without an alliance. testdata/island.txt is the default board with England an
// island (alliances 1 and 2 cross the sea) and a road from Bayern 42 to Schwaben 34.

func islandBoard(t *testing.T) *Board {
	t.Helper()
	f, err := os.Open("testdata/island.txt")
	require.NoError(t, err)
	defer f.Close()
	b, err := LoadBoard(f)
	require.NoError(t, err)
	return b
}

func TestBoardRuling_SeaAlliancesAndRoadsWithoutAllianceLoad(t *testing.T) {
	b := islandBoard(t)
	assert.True(t, b.Allied(England, Frankreich))
	assert.True(t, b.Allied(England, Lothringen))
	for _, sp := range b.SpacesOf(England) {
		for _, z := range b.Roads(int(sp)) {
			assert.Equal(t, England, b.CountryOf(int(z)), "England is an island: road %d-%d", sp+1, z+1)
		}
	}
	assert.False(t, b.Allied(Bayern, Schwaben))
	assert.Contains(t, b.Roads(42-1), uint8(34-1))
	assert.Contains(t, b.String(), " 1 England-Frankreich")

	// The same two cases as one-line edits of the default board.
	for _, text := range []string{edit(0, "road 1 53"), edit(0, "alliance 16 England Burgund")} {
		_, err := LoadBoard(strings.NewReader(text))
		assert.NoError(t, err)
	}
}

func TestK11_AllianceAcrossTheSeaScores(t *testing.T) {
	g, err := NewOnBoard(islandBoard(t), 7, 3)
	require.NoError(t, err)
	advisors(t, g, 0, England, 2)
	advisors(t, g, 1, England, 1)
	advisors(t, g, 0, Frankreich, 1)
	require.Equal(t, Alliance{1, England, Frankreich}, g.board.Alliances()[0])
	assert.Equal(t, [MaxPlayers]int{4, 0, 0}, g.table.AlliancePoints(g.board.Alliances()[0], 3),
		"seat 0 leads both sides of the sea border and scores every advisor there")
	// A road without an alliance scores no alliance: seat 1 leads Bayern and Schwaben.
	advisors(t, g, 1, Bayern, 1)
	advisors(t, g, 1, Schwaben, 1)
	assert.Equal(t, [MaxPlayers]int{4, 0, 0}, g.table.AllAlliancePoints(g.board, 3))
}

func TestK12_ChainsFollowRoadsNotAlliances(t *testing.T) {
	island := islandBoard(t)
	for _, tc := range []struct {
		board               *Board
		crossSea, crossLand int
	}{
		// England 3-4 and Frankreich 6-7 are one chain of four only over road 4-6.
		{DefaultBoard(), 4, 0},
		// Bayern 43-42 and Schwaben 34-33 are one chain of four only over road 42-34.
		{island, 0, 4},
	} {
		g, err := NewOnBoard(tc.board, 7, 3)
		require.NoError(t, err)
		for _, n := range []int{3, 4, 6, 7} {
			monasteryAt(t, g, 0, n-1)
		}
		for _, n := range []int{43, 42, 34, 33} {
			monasteryAt(t, g, 1, n-1)
		}
		assert.Equal(t, tc.crossSea, g.table.ChainPoints(g.board, 0), "%s: across the sea", tc.board.Name())
		assert.Equal(t, tc.crossLand, g.table.ChainPoints(g.board, 1), "%s: across the land border", tc.board.Name())
	}
}

func TestABoardWithSeaAlliancesPlays(t *testing.T) {
	b := islandBoard(t)
	sea := 0
	for seed := uint64(0); seed < 60; seed++ {
		g, _ := playRandomOn(t, b, seed, 3+int(seed%3))
		r := g.Result()
		require.False(t, r.Adjudicated)
		require.Len(t, eventsOf(g, EvGameOver), 1)
		for _, e := range eventsOf(g, EvAllianceScore) {
			if e.B <= 2 {
				sea++
			}
		}
	}
	assert.Positive(t, sea, "some random game scores a sea alliance")
}

func TestTheBoardIsPartOfTheHash(t *testing.T) {
	a, err := NewOnBoard(DefaultBoard(), 1, 3)
	require.NoError(t, err)
	b, err := NewOnBoard(islandBoard(t), 1, 3)
	require.NoError(t, err)
	c, err := NewOnBoard(islandBoard(t), 1, 3)
	require.NoError(t, err)
	assert.NotEqual(t, a.Hash(), b.Hash(), "the same deal on two boards")
	assert.Equal(t, b.Hash(), c.Hash(), "one board loaded twice")
}
