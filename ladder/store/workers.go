package store

import (
	"context"
	"time"
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
	Slots   int
	Started time.Time
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
	// Stopped is ignored) and returns it.
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
