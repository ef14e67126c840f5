package queue

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store"
)

// A block's games are recorded in the order they ended, all of them before the wait
// returns; a record that fails stops the block (the next game's hand-off returns its
// error) and no later game is recorded, so the next attempt plays the rest.
func TestRecorderKeepsOrderAndStopsAtAFailure(t *testing.T) {
	var got []int
	rec := newRecorder(4, func(m store.Match) error {
		got = append(got, m.Rotation)
		return nil
	})
	for rot := range 4 {
		require.NoError(t, rec.add(store.Match{Rotation: rot}))
	}
	require.NoError(t, rec.wait(nil))
	assert.Equal(t, []int{0, 1, 2, 3}, got, "every game recorded, in order, once wait returns")

	fenced := errors.New("fenced")
	got = nil
	rec = newRecorder(4, func(m store.Match) error {
		got = append(got, m.Rotation)
		if m.Rotation == 1 {
			return fenced
		}
		return nil
	})
	require.NoError(t, rec.add(store.Match{Rotation: 0}))
	require.NoError(t, rec.add(store.Match{Rotation: 1}))
	poll.Until(t, "the second record to fail", func() bool { return rec.failed() != nil })
	assert.ErrorIs(t, rec.add(store.Match{Rotation: 2}), fenced, "the block stops at the failed record")
	assert.ErrorIs(t, rec.wait(errors.New("the play's own error")), fenced, "the record's error is the block's")
	assert.Equal(t, []int{0, 1}, got)

	rec = newRecorder(1, func(store.Match) error { return nil })
	played := errors.New("cancelled")
	assert.ErrorIs(t, rec.wait(played), played, "with every record made, the play's error is the block's")
}
