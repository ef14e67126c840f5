package games

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

func TestEveryGameIsRegisteredWithItsBoundsAndOptions(t *testing.T) {
	assert.Equal(t, []string{"ivanhoe", "kardinal", "ninjas"}, engine.Names())
	for name, want := range map[string]struct {
		min, max int
		options  []string
	}{"ivanhoe": {2, 5, nil}, "kardinal": {3, 5, []string{"board"}}, "ninjas": {2, 6, []string{"deck"}}} {
		spec, err := engine.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, want.min, spec.MinPlayers, name)
		assert.Equal(t, want.max, spec.MaxPlayers, name)
		var got []string
		for _, o := range engine.OptionsOf(name) {
			got = append(got, o.Name)
			assert.NotEmpty(t, o.Usage)
		}
		assert.Equal(t, want.options, got, name)
		g, err := engine.New(name, 1, want.min)
		require.NoError(t, err)
		assert.Equal(t, name, g.Name())
		_, err = engine.New(name, 1, want.max+1)
		assert.Error(t, err)
	}
}

func TestOptionsStartGamesWithThemAndNameTheirVariant(t *testing.T) {
	island, err := os.ReadFile("../engine/kardinal/testdata/island.txt")
	require.NoError(t, err)
	opts := engine.Options{kardinal.OptionBoard: string(island)}
	start, err := engine.PrepareGame(kardinal.Name, opts)
	require.NoError(t, err)
	g, err := start(7, 4)
	require.NoError(t, err)
	assert.Equal(t, "island (test board: England across the sea)", g.View(0).(*kardinal.View).Board.Name())
	_, err = start(7, 6)
	assert.ErrorContains(t, err, "3 to 5 players", "a prepared start still checks the players")
	d, err := engine.NewWith(kardinal.Name, 7, 4, nil)
	require.NoError(t, err)
	assert.Equal(t, kardinal.DefaultBoard(), d.View(0).(*kardinal.View).Board)

	assert.Equal(t, "kardinal", engine.Variant("kardinal", nil))
	v := engine.Variant("kardinal", opts)
	assert.Regexp(t, `^kardinal@board-[0-9a-f]{12}$`, v)
	assert.Equal(t, "kardinal", engine.VariantGame(v))
	assert.NotEqual(t, v, engine.Variant("kardinal", engine.Options{kardinal.OptionBoard: string(island) + "\n"}))

	deck := "Peasant 20\nSoldier 11\nKnight 8\nKing 4\nCastle 6\nArcher 6\nMinstrel 4\nDragon 3\nCatapult 4\nNinja 4\nLadder 5\n" +
		"Highwayman 5\nPrincess 4\nExecutioner 4\nTraitor 5\nJester 2\n"
	n, err := engine.NewWith("ninjas", 3, 2, engine.Options{ninjas.OptionDeck: deck})
	require.NoError(t, err)
	want := ninjas.DefaultDeck()
	want[ninjas.Peasant], want[ninjas.Soldier] = 20, 11
	assert.Equal(t, want, n.(*ninjas.Game).Deck())
}

func TestBadOptionsAreOneClearError(t *testing.T) {
	for _, c := range []struct {
		game string
		opts engine.Options
		want string
	}{
		{"ivanhoe", engine.Options{"board": "x"}, `ivanhoe takes no option "board" (it takes none)`},
		{"kardinal", engine.Options{"deck": "x"}, `kardinal takes no option "deck" (it takes board)`},
		{"kardinal", engine.Options{"board": "kardinal-board 2\n"}, "kardinal: board line 1: bad version"},
		{"ninjas", engine.Options{"deck": "Peasant 95\nPeasant 1\n"}, "ninjas: deck line 2: Peasant again (first on line 1)"},
		{"ninjas", engine.Options{"deck": "Peasant 94\n"}, "94 cards in all, want 95"},
		{"ninjas", engine.Options{"deck": "Pawn 95\n"}, `deck line 1: unknown card kind "Pawn"`},
		{"ninjas", engine.Options{"deck": "Peasant lots\n"}, `deck line 1: count "lots"`},
		{"chess", nil, `unknown game "chess"`},
	} {
		_, err := engine.PrepareGame(c.game, c.opts)
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
}
