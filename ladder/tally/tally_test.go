package tally

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
)

// TestTheAggregatesFollowTheGames: aggregates opened over a ladder and refreshed after
// more games hold what a read of every game counts: games, points, endings, meetings,
// the latest forfeits, the last game's time, and the live Elo of a fresh count.
func TestTheAggregatesFollowTheGames(t *testing.T) {
	st, _ := ladderOf(t, 4)
	l, err := Open(ctx, st, "ivanhoe")
	require.NoError(t, err)
	bots, err := st.Bots(ctx, true)
	require.NoError(t, err)
	blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 3})
	require.NoError(t, err)
	for rot := range 3 {
		_, err := st.RecordMatch(ctx, store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe",
			Seats: []store.Seat{{Bot: bots[0].ID, Place: 0, Ending: "ok"}, {Bot: bots[1].ID, Place: 0, Ending: "crash"}}})
		require.NoError(t, err)
	}
	require.NoError(t, l.Refresh(ctx))

	live := rating.NewLive(2, rating.DefaultK)
	want := map[int64]*Bot{bots[0].ID: {Endings: map[string]int{}, Met: map[int64]*Meeting{}}, bots[1].ID: {Endings: map[string]int{}, Met: map[int64]*Meeting{}}}
	games := 0
	require.NoError(t, st.Matches(ctx, "ivanhoe", func(m store.Match) error {
		games++
		places := []int{m.Seats[0].Place, m.Seats[1].Place}
		require.NoError(t, live.Update([]int{0, 1}, places))
		for i, s := range m.Seats {
			b, o := want[s.Bot], m.Seats[1-i]
			b.Games++
			b.Points += rating.Points(places, i)
			b.Endings[s.Ending]++
			if b.Met[o.Bot] == nil {
				b.Met[o.Bot] = &Meeting{}
			}
			b.Met[o.Bot].Games++
			b.Met[o.Bot].Points += rating.Points([]int{s.Place, o.Place}, 0)
			if s.Ending != "ok" {
				b.Forfeited = append(b.Forfeited, m.ID)
			}
		}
		return nil
	}))
	l.Read(func(v View) {
		g := v.Games["ivanhoe"]
		require.NotNil(t, g)
		assert.Equal(t, games, g.Games)
		assert.Equal(t, want, g.Bots)
		assert.Equal(t, 3, g.Bots[bots[1].ID].Forfeits())
		assert.Equal(t, []int64{5, 6, 7}, g.Bots[bots[1].ID].Forfeited)
		assert.EqualValues(t, 7, v.Last)
		assert.Len(t, v.Bots, 2)
	})
	rated, _, _ := l.Rated()
	require.Len(t, rated, 1)
	assert.Equal(t, live.Elo, rated[0].Elo)
	assert.Equal(t, []int64{bots[0].ID, bots[1].ID}, rated[0].IDs)
}
