package arena

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestABotThatForfeitsTooOftenIsDisqualified(t *testing.T) {
	for _, c := range []struct{ name, mode string }{
		{"timeouts", "sleep:1"},
		{"crashes", "exit:1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A long run: the share is of the matches played, so the bot is out after
			// its first three, not after a quarter of the thousand scheduled.
			cfg := testConfig(t, 1000, testEntrant(t, "flaky", c.mode), testEntrant(t, "good", "first"))
			cfg.Clock.Decision = 100 * time.Millisecond
			cfg.Parallel = 1
			cfg.MaxRestarts = 20
			start := time.Now()
			rep, err := Run(context.Background(), cfg)
			var dq *ErrDisqualified
			require.True(t, errors.As(err, &dq), "got %v", err)
			require.NotNil(t, rep, "a stopped run reports what it completed")
			assert.True(t, rep.Partial)
			assert.Contains(t, rep.StoppedBy, "is disqualified")
			assert.Equal(t, "flaky", dq.Bot)
			assert.Equal(t, 3, dq.Forfeits, "3 is the least that disqualifies")
			// Counted over the matches played: out after 3 (a loaded machine may let
			// it through one), not after a quarter of the 1,000 scheduled.
			assert.Less(t, dq.Matches, 12, "counted over the matches played")
			assert.Regexp(t, `^bot flaky is disqualified from this run: it timed out or crashed in 3 of the \d+ matches it played, more than the 25% allowed \(--max-forfeit-share\); last: `, err.Error())
			assert.Less(t, time.Since(start), 5*time.Second, "the run stops at once")
			requireNoLeftovers(t)
		})
	}
	t.Run("a share of 1 never disqualifies", func(t *testing.T) {
		cfg := testConfig(t, 8, testEntrant(t, "flaky", "sleep:1"), testEntrant(t, "good", "first"))
		cfg.Clock.Decision = 100 * time.Millisecond
		cfg.MaxForfeitShare = 1
		rep, err := Run(context.Background(), cfg)
		require.NoError(t, err, "every match a timeout is not more than all of them")
		assert.Equal(t, 8, rep.Bots[0].Endings["timeout"])
		requireNoLeftovers(t)
	})
}

func TestForfeitShareCountsPlayedMatches(t *testing.T) {
	for _, c := range []struct {
		forfeits, played int
		share            float64
		past             bool
	}{
		{2, 2, 0.25, false}, // under the floor of three
		{3, 3, 0.25, true},
		{3, 12, 0.25, false}, // exactly a quarter is not more than it
		{4, 12, 0.25, true},
		{3, 4, 1, false}, // a share of 1 never
		{5, 5, 0, false}, // 0: never
	} {
		assert.Equal(t, c.past, PastForfeitShare(c.forfeits, c.played, c.share), "%+v", c)
	}
}

func TestAMatchPastItsWallClockCapTimesOut(t *testing.T) {
	cfg := testConfig(t, 2, testEntrant(t, "slow", "slow:60"), testEntrant(t, "good", "first"))
	cfg.Clock.Match = 250 * time.Millisecond
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	for _, m := range rep.Matches {
		s := m.Seats[indexOf(m, 0)]
		assert.Equal(t, Timeout, s.Ending, m.ID)
		assert.Contains(t, s.Detail, "wall-clock cap of 250ms")
		assert.Positive(t, s.Answered, "it answered in time until the cap")
		r := readReplay(t, m.Replay)
		assert.Equal(t, int64(250), r.Header.Clock.MatchMs)
	}
	requireNoLeftovers(t)
}
