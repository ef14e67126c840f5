package queue

import (
	"context"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A worker's job in hand waits for a slot; at a stop it goes back to the queue at once
// (a snooze of 0: no attempt counted), and at a hard stop with its context.
func TestAJobInHandWaitsForASlot(t *testing.T) {
	s := newSlots(1)
	require.NoError(t, s.take(context.Background()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, s.take(ctx), context.Canceled, "the slot is taken: the hard stop's cancel ends the wait")

	waited := make(chan error)
	go func() { waited <- s.take(context.Background()) }()
	s.stop()
	var snooze *rivertype.JobSnoozeError
	require.ErrorAs(t, <-waited, &snooze, "a stop sends the job in hand back")
	assert.Zero(t, snooze.Duration)
	s.give()
	require.ErrorAs(t, s.take(context.Background()), &snooze, "after a stop no job starts, even with a slot free")
}
