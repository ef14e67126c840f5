package ladder

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// countingStore counts the games the store hands out.
type countingStore struct {
	*store.SQLite
	read int
}

func (c *countingStore) MatchesAfter(ctx context.Context, game string, after int64, fn func(store.Match) error) error {
	return c.SQLite.MatchesAfter(ctx, game, after, func(m store.Match) error {
		c.read++
		return fn(m)
	})
}

// TestALaterRoundReadsOnlyWhatChanged: ladder serve's rounds read the history once.
// A later round reads the games recorded since the last (its own and others'), not
// the ladder's history, and then chooses from what a scheduler made now reads: the
// same live Elo, games and forfeits per bot, with its own games counted once.
func TestALaterRoundReadsOnlyWhatChanged(t *testing.T) {
	sq := newLadder(t, "a", "b", "c", "hang")
	st := &countingStore{SQLite: sq}
	p := &fakePlayer{strength: map[string]float64{"a": 0, "b": 100, "c": 200}, hangs: "hang"}
	cfg := RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Matches: 40, Seed: 1}
	_, err := Run(ctx, cfg) // the history
	require.NoError(t, err)

	rounds := NewRounds(cfg)
	first, err := rounds.Run(ctx, nil)
	require.NoError(t, err)
	require.Positive(t, first.Recorded)
	_, err = Run(ctx, cfg) // recorded by another process while the ladder waits
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "d", SHA256: "sha-d", Builtin: "d"})
	require.NoError(t, err)
	p.strength["d"] = 300

	history := 0
	require.NoError(t, sq.Matches(ctx, "ivanhoe", func(store.Match) error { history++; return nil }))
	st.read = 0
	second, err := rounds.Run(ctx, nil)
	require.NoError(t, err)
	require.Positive(t, second.Recorded)
	assert.Equal(t, first.Recorded+40, st.read, "the second round read the games since the first (its own and the other run's), of %d", history)

	fresh, err := NewScheduler(ctx, cfg, nil)
	require.NoError(t, err)
	got, want := rounds.r, fresh.r
	assert.Equal(t, want.active, got.active)
	for id := range want.bots {
		assert.Equal(t, want.recorded[id], got.recorded[id], "games of bot %d", id)
		assert.InDelta(t, want.liveElo.Elo[want.liveIdx[id]], got.liveElo.Elo[got.liveIdx[id]], 1e-9, "live Elo of bot %d", id)
		assert.Equal(t, want.forfeits.forfeits[id], got.forfeits.forfeits[id], "forfeits of bot %d", id)
		assert.Equal(t, want.forfeits.suspended[id], got.forfeits.suspended[id], "suspension of bot %d", id)
	}
}
