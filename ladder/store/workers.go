package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arena-games/arena/ladder/queue/jobtable"
)

// Worker is a process on some machine that plays the ladder's blocks, as it registered
// itself. Its times are the database's clock.
type Worker struct {
	ID   int64
	Host string
	PID  int
	// Version is the arena build the worker runs.
	Version string
	// Engine names the protocol and engine versions the worker plays by: a job is
	// for the workers that play its games identically.
	Engine string
	// Sandbox lists the sandbox layers in force for the worker's bots.
	Sandbox []string
	// Slots is how many games the worker plays at once.
	Slots int
	// QueueClient is the ID of the work queue's client the worker takes its jobs
	// with (River's client ID); empty for none. The jobs it runs when its heartbeat
	// has been silent too long go back to the queue (SilentClients).
	QueueClient string
	Started     time.Time
	// Heartbeat is the last sign of life; a worker whose heartbeat is older than the
	// window its reader allows is gone, whether or not it said so.
	Heartbeat time.Time
	// Stopped is zero until the worker stops (StopWorker).
	Stopped time.Time
}

// WorkerRegistry is a store that knows the workers playing its ladder from many
// machines. A worker registers once at start, heartbeats while it runs, marks itself
// stopped on the way out, and records each game with its ID in Match.Worker.
type WorkerRegistry interface {
	// RegisterWorker adds w (its ID, Started and Heartbeat are set by the store,
	// Stopped is ignored) and returns it. The workers of w.Host silent for longer
	// than AliveWindow are marked stopped at their last heartbeat: a machine's new
	// worker (a restart after a crash) supersedes its dead ones, which then no longer
	// count as gone.
	RegisterWorker(ctx context.Context, w Worker) (Worker, error)
	// Heartbeat records that the worker is alive now; an error wrapping ErrNotFound
	// for a worker that is unknown or stopped.
	Heartbeat(ctx context.Context, id int64) error
	// StopWorker marks the worker stopped now; stopping it again is a no-op, an
	// unknown one an error wrapping ErrNotFound.
	StopWorker(ctx context.Context, id int64) error
	// Workers lists every worker that ever registered, oldest first.
	Workers(ctx context.Context) ([]Worker, error)
}

// How often a worker heartbeats, and how old its last heartbeat may be for it to count
// as alive: three heartbeats missed, so that one slow write to a busy database does
// not make a worker look gone.
const (
	HeartbeatEvery = 10 * time.Second
	AliveWindow    = 3 * HeartbeatEvery
)

// RescueAfter is how long a worker's heartbeat may be silent before the coordinator
// hands the jobs it runs back to the queue: six heartbeats missed, twice AliveWindow
// (the fleet calls the worker gone first). A worker that was only slow (a stalled
// database, a frozen machine) loses the blocks under way, whose games its fence then
// refuses to record, but nothing is recorded twice; a worker killed for good has its
// jobs played again within a minute or so rather than after a lease per block.
const RescueAfter = 6 * HeartbeatEvery

// WorkerHorizon is how long a worker that stopped heartbeating without stopping stays
// in Fleet.Workers (as gone): long enough to be noticed, short enough that a machine
// retired without a word leaves the list by itself.
const WorkerHorizon = 24 * time.Hour

// BlockJobKind is the work queue's job kind of a block: Fleet counts these jobs.
const BlockJobKind = jobtable.Kind

// Fleet is what the database knows of a shared ladder's work at one moment, by its
// own clock.
type Fleet struct {
	// Queued counts the blocks waiting in the work queue (jobs of kind BlockJobKind
	// available, pending, scheduled or retryable, as the coordinator counts them): 0
	// before the queue's tables exist.
	Queued int
	// OldestQueued is how long ago the oldest of them was enqueued; 0 for none.
	OldestQueued time.Duration
	// GivenUp counts the blocks whose job failed its last attempt (River discarded
	// it): they stay open, and no worker plays them until an operator looks.
	GivenUp int
	// Retrying counts the queued blocks whose job failed an attempt and waits for the
	// next one (River's retryable state).
	Retrying int
	// Alive counts the workers that have not stopped and heartbeat within
	// AliveWindow.
	Alive int
	// Workers are those not stopped whose last heartbeat is within WorkerHorizon,
	// and those that stopped within the games window, oldest first.
	Workers []FleetWorker
	// Window is the span over which FleetWorker.Games counts.
	Window time.Duration
}

// FleetWorker is one worker in a Fleet.
type FleetWorker struct {
	Worker
	// HeartbeatAge is how long ago it last heartbeat.
	HeartbeatAge time.Duration
	// Alive: not stopped, and heartbeat within AliveWindow.
	Alive bool
	// Games counts the games it recorded within the window.
	Games int
}

// FleetReader is a store that reports its Fleet; window is the span its per-worker
// game counts cover.
type FleetReader interface {
	Fleet(ctx context.Context, window time.Duration) (Fleet, error)
}

// keepAliveEvery is HeartbeatEvery, shorter in tests.
var keepAliveEvery = HeartbeatEvery

// KeepAlive registers w and heartbeats it every HeartbeatEvery until ctx ends, then
// marks it stopped; done is closed once that is written (or failed), so that a worker
// can wait for it before it exits. A failed heartbeat (the database restarting, say)
// goes to onError and the next one is tried on time. A worker superseded while it was
// frozen (RegisterWorker marked it stopped) registers again, under a new ID, and
// heartbeats that: its games still name the first (the returned Worker), and its
// queue client (Worker.QueueClient) heartbeats again, so that the coordinator does not
// take its jobs (SilentClients) while it plays them.
func KeepAlive(ctx context.Context, reg WorkerRegistry, w Worker, onError func(error)) (_ Worker, done <-chan struct{}, _ error) {
	first, err := reg.RegisterWorker(ctx, w)
	if err != nil {
		return Worker{}, nil, err
	}
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		tick := time.NewTicker(keepAliveEvery)
		defer tick.Stop()
		w := first
		for {
			select {
			case <-tick.C:
				err := reg.Heartbeat(ctx, w.ID)
				if errors.Is(err, ErrNotFound) && ctx.Err() == nil {
					again, rerr := reg.RegisterWorker(ctx, w)
					if rerr == nil {
						err = fmt.Errorf("%w; registered again as worker %d", err, again.ID)
						w = again
					}
				}
				if err != nil && ctx.Err() == nil {
					onError(err)
				}
			case <-ctx.Done():
				stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				defer cancel()
				if err := reg.StopWorker(stop, w.ID); err != nil {
					onError(err)
				}
				return
			}
		}
	}()
	return first, ch, nil
}
