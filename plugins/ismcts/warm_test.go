package ismcts

import (
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/stretchr/testify/require"
)

// TestWarmSetting: warm=N sets Config.Warm, 5 by default in two-player Ninjas only, and
// bad values say why.
func TestWarmSetting(t *testing.T) {
	require.Equal(t, 5, Config{}.withTable("ninjas", 2).Warm, "two-player Ninjas: 5 by default")
	require.Zero(t, Config{}.withTable("ninjas", 3).Warm, "three players: off")
	cfg, err := ParseSettings("warm=8")
	require.NoError(t, err)
	require.Equal(t, 8, cfg.Warm)
	cfg, err = ParseSettings("warm=0")
	require.NoError(t, err)
	require.Negative(t, cfg.Warm, "warm=0 turns it off, whatever the table's default")
	for _, bad := range []string{"warm=-1", "warm=1001", "warm=x"} {
		_, err := ParseSettings(bad)
		require.ErrorContains(t, err, "setting warm=", bad)
	}
}

// TestWarmGivesTheMoversValue: a warmed node gets the virtual visits at its mover's
// chance to win by the fitted model, seat 1's the complement of seat 0's, on top of
// what it holds; its parent is not touched.
func TestWarmGivesTheMoversValue(t *testing.T) {
	g := midGame(t, "ninjas", 2, 6).(*ninjas.Game)
	for g.Phase() != ninjas.PhaseAction {
		require.NoError(t, g.Apply(0))
	}
	p := ninjasWinChance(g, &ninjasFitted)
	require.Greater(t, min(p, 1-p), 0.01, "a state the model is not sure of")
	var tr tree
	tr.reset()
	zero := tr.add(0, engine.Option{Kind: 1}, 0)
	one := tr.add(0, engine.Option{Kind: 2}, 1)
	tr.nodes[one].visits, tr.nodes[one].reward = 2, 1
	s := warmSearch(t, "ninjas", 2, "warm=5")
	require.Zero(t, s.warmIfDue(&tr, zero, g), "a turn's first decision: warmed at once")
	s.cfg.Warm = 3
	require.Zero(t, s.warmIfDue(&tr, one, g))
	require.Equal(t, int32(5), tr.nodes[zero].visits)
	require.InDelta(t, 5*p, tr.nodes[zero].reward, 1e-12)
	require.Equal(t, int32(5), tr.nodes[one].visits)
	require.InDelta(t, 1+3*(1-p), tr.nodes[one].reward, 1e-12)
	require.Zero(t, tr.nodes[0].visits, "the parent keeps its counts")
}

// warmSearch is a search (seed 5) of game for a table of players with settings.
func warmSearch(t *testing.T, game string, players int, settings string) *Search {
	cfg, err := ParseSettings(settings)
	require.NoError(t, err)
	s, err := NewSearch(game, nil, 5, cfg)
	require.NoError(t, err)
	s.resolve(players)
	return s
}

// TestWarmKardinalGivesTheFittedValue: in five-player Kardinal a warmed node gets the
// virtual visits at the fitted cut-off evaluation's value, for its mover, of the state
// its move led to.
func TestWarmKardinalGivesTheFittedValue(t *testing.T) {
	g := midGame(t, kardinal.Name, 5, 40)
	want := make([]float64, 5)
	KardinalFit(kardinalSoft, fitModel(2))(g, want) // the table's default, eval=fit2
	s := warmSearch(t, kardinal.Name, 5, "warm=4,soft=3")
	var tr tree
	tr.reset()
	for seat := 0; seat < 5; seat++ {
		n := tr.add(0, engine.Option{Kind: uint8(seat + 1)}, int8(seat))
		require.Zero(t, s.warmIfDue(&tr, n, g), "warmed at once")
		require.Equal(t, int32(4), tr.nodes[n].visits)
		require.InDelta(t, 4*want[seat], tr.nodes[n].reward, 1e-12, "seat %d", seat)
	}
	require.NotEqual(t, want[0], want[1], "a state whose seats the model tells apart")
}

// TestWarmStartsTheTreesNodes: a search with warm=1000 starts nearly every node it
// adds with the 1,000 virtual visits in two-player Ninjas (not those whose play-out
// ends the game before a turn begins) and every one in five-player Kardinal, and one
// with warm=0 none; the tables without a fitted model are never warmed.
func TestWarmStartsTheTreesNodes(t *testing.T) {
	warmed := func(game, settings string, players int) (hot, nodes int) {
		cfg, err := ParseSettings(settings)
		require.NoError(t, err)
		s, err := NewSearch(game, nil, 5, cfg)
		require.NoError(t, err)
		g := midGame(t, game, players, 6)
		seat := g.ToMove()
		_, err = s.Choose(g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options(), time.Time{})
		require.NoError(t, err)
		for _, n := range s.tree.nodes[1:] {
			if n.visits >= 1000 {
				hot++
			}
		}
		return hot, len(s.tree.nodes) - 1
	}
	hot, nodes := warmed("ninjas", "iterations=300,warm=1000", 2)
	require.Greater(t, nodes, 100)
	require.Greater(t, hot, nodes*9/10, "warmed")
	hot, _ = warmed("ninjas", "iterations=300,warm=0", 2)
	require.Zero(t, hot, "warm=0 turns it off")
	hot, _ = warmed(kardinal.Name, "iterations=300", 5)
	require.Zero(t, hot, "five-player Kardinal: off by default")
	hot, nodes = warmed(kardinal.Name, "iterations=300,warm=1000", 5)
	require.Greater(t, nodes, 100)
	require.Equal(t, nodes, hot, "five-player Kardinal: every node")
	for _, cell := range []struct {
		game     string
		players  int
		settings string
	}{
		{"ninjas", 3, "iterations=300,warm=1000"},
		{kardinal.Name, 4, "iterations=300,warm=1000"},
		{kardinal.Name, 5, "iterations=300,warm=1000,eval=projection"},
	} {
		hot, nodes = warmed(cell.game, cell.settings, cell.players)
		require.Greater(t, nodes, 100)
		require.Zero(t, hot, "%s with %d players, %s: no fitted model", cell.game, cell.players, cell.settings)
	}
}
