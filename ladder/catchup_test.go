package ladder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// TestAnUpdatedSchedulerIsAFreshOne: a scheduler made before more games were
// recorded, a suspended bot reinstated (and suspended again), a bot added and one
// retired, once updated, chooses from what a scheduler made now reads: the same games
// per bot (the open block's under way), live Elo, forfeit shares, suspensions and
// active bots, though it read only the games recorded since.
func TestAnUpdatedSchedulerIsAFreshOne(t *testing.T) {
	st := newLadder(t, "a", "b", "c", "hang")
	p := &fakePlayer{strength: map[string]float64{"a": 0, "b": 100, "c": 200}, hangs: "hang"}
	cfg := RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 40, Seed: 1}
	_, err := Run(ctx, cfg)
	require.NoError(t, err)
	s, err := NewScheduler(ctx, cfg, nil)
	require.NoError(t, err)
	require.True(t, s.r.forfeits.suspended[botID(t, st, "hang")])

	_, err = Run(ctx, cfg)
	require.NoError(t, err)
	_, err = st.ReinstateBot(ctx, "hang")
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "d", SHA256: "sha-d", Builtin: "d"})
	require.NoError(t, err)
	p.strength["d"] = 300
	_, err = st.RetireBot(ctx, "b")
	require.NoError(t, err)
	_, err = Run(ctx, cfg)
	require.NoError(t, err)
	_, err = s.NewBlock(ctx) // left open, as a block a worker has not finished
	require.NoError(t, err)
	open, err := st.OpenBlocks(ctx, "ivanhoe")
	require.NoError(t, err)
	require.Len(t, open, 1)

	require.NoError(t, s.Update(ctx, open))
	fresh, err := NewScheduler(ctx, cfg, open)
	require.NoError(t, err)
	got, want := s.r, fresh.r
	assert.Equal(t, want.active, got.active)
	assert.Equal(t, want.players, got.players)
	assert.Equal(t, want.planned, got.planned)
	for id := range want.bots {
		assert.Equal(t, want.games[id], got.games[id], "games of bot %d", id)
		assert.Equal(t, want.liveElo.Elo[want.liveIdx[id]], got.liveElo.Elo[got.liveIdx[id]], "live Elo of bot %d", id)
		assert.Equal(t, want.forfeits.played[id], got.forfeits.played[id], "counted games of bot %d", id)
		assert.Equal(t, want.forfeits.forfeits[id], got.forfeits.forfeits[id], "forfeits of bot %d", id)
		assert.Equal(t, want.forfeits.suspended[id], got.forfeits.suspended[id], "suspension of bot %d", id)
	}
	hang := botID(t, st, "hang")
	assert.True(t, got.forfeits.suspended[hang], "suspended again after its reinstatement")
	assert.GreaterOrEqual(t, got.forfeits.forfeits[hang], 3)
	assert.Less(t, got.forfeits.forfeits[hang], got.recorded[hang], "its forfeits counted afresh: its games before the reinstatement are not")
}

func botID(t *testing.T, st store.Store, name string) int64 {
	t.Helper()
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	for _, b := range bots {
		if b.Name == name {
			return b.ID
		}
	}
	t.Fatalf("no bot %s", name)
	return 0
}
