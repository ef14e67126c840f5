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
	for _, c := range []struct{ name, mode, ending string }{
		{"timeouts", "sleep:1", "timeout"},
		{"crashes", "exit:1", "crash"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig(t, 10, testEntrant(t, "flaky", c.mode), testEntrant(t, "good", "first"))
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
			assert.Equal(t, 3, dq.Forfeits, "3 of 10 is past a quarter, and the least that disqualifies")
			assert.Equal(t, 10, dq.Matches)
			assert.Contains(t, err.Error(), "bot flaky is disqualified from this run: it timed out or crashed in 3 of its 10 matches, more than the 25% allowed (--max-forfeit-share); last: "+c.ending)
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
