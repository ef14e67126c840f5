package ladder

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// A closed Until ends the run after the blocks under way, with every block whole:
// the way a served ladder starts a new round when its bots change.
func TestRunUntilEndsAfterTheBlocksUnderWay(t *testing.T) {
	st := newLadder(t, "random", "weak", "strong")
	until := make(chan struct{})
	p := &fakePlayer{strength: strengths}
	cfg := RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 2, Parallel: 2, Seed: 1, Until: until,
		OnGame: func(m store.Match, _ map[int64]store.Bot, _ map[int64]float64) {
			if m.ID == 10 {
				close(until)
			}
		}}
	sum, err := Run(ctx, cfg)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, sum.Recorded, 10)
	assert.Less(t, sum.Recorded, 20, "no more than the blocks under way and one waiting are played after the close")
	checkBlocks(t, st, true)
}

func TestReportOfABot(t *testing.T) {
	st := newLadder(t, "random", "weak", "strong")
	_, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Players: 2, Matches: 300, Seed: 2})
	require.NoError(t, err)
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	strong := bots[2]
	rep, err := Report(ctx, st, "ivanhoe", strong.ID, 6, StandingsOptions{Resamples: 30})
	require.NoError(t, err)
	assert.Equal(t, "strong", rep.Bot.Name)
	assert.Equal(t, rep.Games, rep.Endings["ok"], "the fake player's seats all end well")
	require.Len(t, rep.Opponents, 2)
	meetings := 0
	for _, o := range rep.Opponents {
		meetings += o.Games
		assert.Greater(t, o.Score, 0.5, "strong beats %s more often than not", o.Bot.Name)
	}
	assert.Equal(t, rep.Games, meetings, "two seats: one opponent a game")
	require.Len(t, rep.History, 6)
	for i, h := range rep.History {
		assert.LessOrEqual(t, h.Low, h.Elo)
		assert.GreaterOrEqual(t, h.High, h.Elo)
		if i > 0 {
			assert.Greater(t, h.LadderGames, rep.History[i-1].LadderGames)
		}
	}
	last := rep.History[5]
	assert.Equal(t, rep.Games, last.BotGames)
	assert.Positive(t, last.Elo, "strong is rated above the random anchor")

	_, err = Report(ctx, st, "ivanhoe", 999, 6, StandingsOptions{})
	assert.ErrorIs(t, err, store.ErrNotFound)

	// The curve's last point is the standings' fit, and a process's running aggregates,
	// caught up after more games, report as a fresh read does.
	tables, err := Standings(ctx, st, "ivanhoe", StandingsOptions{Resamples: 30, Retired: true})
	require.NoError(t, err)
	for _, s := range tables[0].Standings {
		if s.Bot.ID == strong.ID {
			assert.Equal(t, [3]float64{s.Elo, s.Low, s.High}, [3]float64{last.Elo, last.Low, last.High})
		}
	}
	running, err := tally.Open(ctx, st, "ivanhoe")
	require.NoError(t, err)
	_, err = Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Players: 2, Matches: 50, Seed: 3})
	require.NoError(t, err)
	require.NoError(t, running.Refresh(ctx))
	fresh, err := Report(ctx, st, "ivanhoe", strong.ID, 6, StandingsOptions{Resamples: 30})
	require.NoError(t, err)
	curves, err := Curves(ctx, st, "ivanhoe", running.Games("ivanhoe"), 6, StandingsOptions{Resamples: 30})
	require.NoError(t, err)
	kept, err := ReportFrom(running, "ivanhoe", strong.ID, curves[strong.ID])
	require.NoError(t, err)
	assert.Equal(t, fresh, kept)
	assert.Greater(t, kept.Games, rep.Games)
}
