package ladder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder/store"
)

// A player with options plays only blocks of its variant, so a ladder run on another
// board never plays (or records) a block of the default board with it, nor the reverse.
func TestArenaPlayerPlaysOnlyBlocksOfItsVariant(t *testing.T) {
	opts := engine.Options{"deck": "Peasant 95\n"}
	variant := engine.Variant("ninjas", opts)
	for _, c := range []struct {
		block string
		opts  engine.Options
	}{{"ninjas", opts}, {variant, nil}} {
		p := &ArenaPlayer{Launch: StoreLauncher(t.TempDir(), testBuiltin), Clock: arena.DefaultClock(), Options: c.opts}
		err := p.PlayBlock(ctx, store.Block{ID: 7, Game: c.block, Seed: 1, Bots: []int64{1, 2}, Rotations: 2},
			[]store.Bot{{ID: 1, Builtin: "random"}, {ID: 2, Builtin: "random"}},
			func(store.Match) error { t.Fatal("nothing is played"); return nil })
		require.Error(t, err)
		assert.Contains(t, err.Error(), "block 7 is of "+c.block)
	}
}
