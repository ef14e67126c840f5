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

// A held worker's jobs wait for its release before they take a slot; stopped before
// it, they go back to the queue at once (a snooze of 0), and a hard stop's cancel ends
// the wait.
func TestAHeldWorkersJobsWaitForItsRelease(t *testing.T) {
	w := &Worker{slots: newSlots(1), block: &blockWorker{}}
	w.slots.ready = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With a slot free and the context ended, an unheld take picks either at random:
	// twenty in a row that take no slot show the hold.
	for range 20 {
		require.ErrorIs(t, w.slots.take(ctx), context.Canceled, "held: the cancel ends the wait")
	}
	assert.Empty(t, w.slots.play, "no slot taken while held")

	waited := make(chan error, 1)
	go func() { waited <- w.slots.take(context.Background()) }()
	w.Release(7)
	require.NoError(t, <-waited, "released, the job takes the free slot")
	assert.Equal(t, int64(7), w.block.id.Load(), "with the worker's ID")
	w.Release(8)
	assert.Equal(t, int64(7), w.block.id.Load(), "a second release does nothing")

	held := &Worker{slots: newSlots(1), block: &blockWorker{}}
	held.slots.ready = make(chan struct{})
	go func() { waited <- held.slots.take(context.Background()) }()
	held.slots.stop()
	var snooze *rivertype.JobSnoozeError
	require.ErrorAs(t, <-waited, &snooze, "stopped before its release, the job goes back")
	assert.Zero(t, snooze.Duration)
}
