package ladder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// gamesOf counts the recorded games of each bot by name.
func gamesOf(t *testing.T, st store.Store) map[string]int {
	t.Helper()
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	name := map[int64]string{}
	for _, b := range bots {
		name[b.ID] = b.Name
	}
	out := map[string]int{}
	require.NoError(t, st.Matches(ctx, "ivanhoe", func(m store.Match) error {
		for _, s := range m.Seats {
			out[name[s.Bot]]++
		}
		return nil
	}))
	return out
}

func TestABotPastItsForfeitShareIsSuspendedAndTheRunGoesOn(t *testing.T) {
	st := newLadder(t, "a", "b", "c", "hang")
	p := &fakePlayer{strength: map[string]float64{"a": 0, "b": 100, "c": 200}, hangs: "hang"}
	var suspended []string
	cfg := RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 60, Seed: 1,
		OnSuspend: func(b store.Bot, reason string) { suspended = append(suspended, b.Name+": "+reason) }}
	sum, err := Run(ctx, cfg)
	require.NoError(t, err, "a suspension does not stop the run")
	assert.GreaterOrEqual(t, sum.Recorded, 60)
	require.Len(t, suspended, 1)
	assert.Contains(t, suspended[0], "hang: timed out or crashed in 3 of its 3 games, more than the 25% allowed (--max-forfeit-share); last: timeout in block")
	games := gamesOf(t, st)
	// Suspended at its third game, it finishes the block under way (a block of two
	// rotations) and gets no new table.
	assert.LessOrEqual(t, games["hang"], 4, "%v", games)
	assert.Greater(t, games["a"]+games["b"]+games["c"], 100)
	sus, err := st.Suspensions(ctx)
	require.NoError(t, err)
	require.Len(t, sus, 1)
	assert.True(t, sus[0].Holds())

	t.Run("it stays suspended in the next run", func(t *testing.T) {
		before := gamesOf(t, st)["hang"]
		suspended = nil
		_, err := Run(ctx, cfg)
		require.NoError(t, err)
		assert.Equal(t, before, gamesOf(t, st)["hang"])
		assert.Empty(t, suspended)
		tables, err := Standings(ctx, st, "ivanhoe", StandingsOptions{Resamples: 10})
		require.NoError(t, err)
		for _, s := range tables[0].Standings {
			if s.Bot.Name == "hang" {
				assert.Contains(t, s.Suspended, "3 of its 3 games")
			} else {
				assert.Empty(t, s.Suspended)
			}
		}
	})

	t.Run("reinstated, it plays and its forfeits count afresh", func(t *testing.T) {
		_, err := st.ReinstateBot(ctx, "a")
		assert.ErrorIs(t, err, store.ErrNotFound, "a is not suspended")
		b, err := st.ReinstateBot(ctx, "hang")
		require.NoError(t, err)
		assert.Equal(t, "hang", b.Name)
		before := gamesOf(t, st)["hang"]
		suspended = nil
		_, err = Run(ctx, cfg)
		require.NoError(t, err)
		require.Len(t, suspended, 1, "suspended again")
		assert.Contains(t, suspended[0], "in 3 of its 3 games", "only games since the reinstatement count")
		assert.Greater(t, gamesOf(t, st)["hang"], before)
	})

	t.Run("a share of -1 never suspends", func(t *testing.T) {
		st := newLadder(t, "a", "hang")
		p := &fakePlayer{strength: map[string]float64{"a": 0}, hangs: "hang"}
		_, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 10, Seed: 1, MaxForfeitShare: -1})
		require.NoError(t, err)
		assert.Equal(t, 10, gamesOf(t, st)["hang"])
	})

	t.Run("too few bots left to seat a table stops the run with the reason", func(t *testing.T) {
		st := newLadder(t, "a", "hang")
		p := &fakePlayer{strength: map[string]float64{"a": 0}, hangs: "hang"}
		_, err := Run(ctx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 10, Seed: 1})
		require.ErrorIs(t, err, ErrTooFewBots)
		assert.Contains(t, err.Error(), "1 suspended (arena bot list, arena bot reinstate NAME)")
	})
}
