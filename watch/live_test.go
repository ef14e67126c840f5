package watch_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/watch"
)

// A game followed while its replay is written, in pieces that cut records in two,
// shows exactly the public point of view of the finished game, step by step, and
// nothing any seat held in its hand that the public did not see.
func TestAFollowedGameShowsThePublicStepsAsTheyCome(t *testing.T) {
	eachGame(t, func(t *testing.T, rep *arena.Replay) {
		timeout := arena.Timeout
		rep.Endings = append(rep.Endings, arena.Record{Type: "ending", N: 3, Seat: 1, Ending: &timeout, Detail: "chose option 9 of 4"})
		var file bytes.Buffer
		require.NoError(t, watch.WriteReplay(&file, rep))
		written := file.Bytes()
		var grow bytes.Buffer
		f := watch.Follow(&grow)
		var got []watch.Update
		for len(written) > 0 {
			n := min(len(written), 777) // a piece that ends inside a record
			grow.Write(written[:n])
			written = written[n:]
			ups, err := f.Read()
			require.NoError(t, err)
			got = append(got, ups...)
			assert.Equal(t, len(written) == 0, f.Done(), "done exactly once the result is read")
		}
		public, err := watch.Steps(rep, watch.Public)
		require.NoError(t, err)
		require.NotNil(t, got[0].Game)
		assert.Equal(t, rep.Header.Bots, got[0].Game.Bots)
		var steps []watch.Step
		for _, u := range got[1:] {
			switch {
			case u.Step != nil:
				steps = append(steps, *u.Step)
			case u.Forfeit != nil:
				assert.Equal(t, watch.LiveForfeit{N: 3, Seat: 1, Ending: "timeout"}, *u.Forfeit)
			case u.Result != nil:
				assert.Equal(t, rep.Result.Place, u.Result.Place)
			}
		}
		require.Len(t, steps, len(public.Steps))
		for i, st := range steps {
			want := public.Steps[i]
			assert.Equal(t, want.Text, st.Text, "step %d", i)
			assert.Equal(t, want.Table, st.Table, "step %d", i)
			assert.Equal(t, want.Happened, st.Happened, "step %d", i)
			assert.Nil(t, st.Asked)
		}
		stream, err := json.Marshal(got)
		require.NoError(t, err)
		assert.NotContains(t, string(stream), "chose option", "a forfeit's detail waits for the end")
		var told []string
		for _, st := range public.Steps {
			told = append(told, st.Happened...)
		}
		private := 0
		for seat := range rep.Header.Players {
			mine, err := watch.Steps(rep, seat)
			require.NoError(t, err)
			for i, st := range mine.Steps {
				for _, line := range st.Happened {
					if !slices.Contains(told, line) {
						private++
						assert.NotContains(t, string(stream), jsonText(line), "seat %d's private event at step %d", seat, i)
					}
				}
			}
		}
		assert.Positive(t, private, "no seat saw anything private: the test shows nothing")
	})
}

// jsonText is s as it stands inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// A record that does not fit the game is an error, not a panic.
func TestAFollowedGameRefusesARecordThatDoesNotFit(t *testing.T) {
	rep := played(t, "ninjas", 2, 1)
	rep.Decisions[2].Choice += 100
	var file bytes.Buffer
	require.NoError(t, watch.WriteReplay(&file, rep))
	_, err := watch.Follow(&file).Read()
	assert.ErrorContains(t, err, "decision 2")
	_, err = watch.Follow(strings.NewReader("{\"type\":\"decision\"}\n")).Read()
	assert.ErrorContains(t, err, "not a replay header")
}

// BenchmarkFollowAGame follows a whole recorded game (re-played and drawn from the
// public point of view), as one live viewer's stream does over the game.
func BenchmarkFollowAGame(b *testing.B) {
	rep := played(b, "ivanhoe", 4, 3)
	var file bytes.Buffer
	if err := watch.WriteReplay(&file, rep); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := watch.Follow(bytes.NewReader(file.Bytes())).Read(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rep.Decisions)), "decisions/game")
}
