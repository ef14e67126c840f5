package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/arena-games/arena/ladder/queue/jobtable"
)

// ErrFenced is wrapped by RecordMatchFenced's error when the job the game was played
// for is no longer the writer's: its lease ran out and the work queue handed it on.
var ErrFenced = jobtable.ErrNotHeld

// Fence names the attempt of a work-queue job (River's, kept in the same database)
// that a game was played for.
type Fence struct {
	Job     int64
	Attempt int
}

// RecordMatchFenced is RecordMatch for a game played by a job of the work queue: it
// writes only while the job is still running in attempt f.Attempt. The job's row is
// share-locked inside the game's transaction (jobtable.Hold), so the queue cannot
// hand the job on between the check and the commit (its rescue waits for the commit,
// and the next attempt then sees the game recorded). A worker frozen past its lease
// and woken up after the job went to someone else records nothing, and gets an error
// wrapping ErrFenced.
func (p *Postgres) RecordMatchFenced(ctx context.Context, m Match, f Fence) (Match, error) {
	return p.recordMatch(ctx, m, func(b *pgx.Batch) func() error {
		return jobtable.QueueHold(b, f.Job, f.Attempt)
	})
}

// Block returns the block with that ID, with its bots and the rotations recorded, or
// an error wrapping ErrNotFound.
func (p *Postgres) Block(ctx context.Context, id int64) (Block, error) {
	bs, err := p.blocks(ctx, `b.id = $1`, id)
	if err != nil {
		return Block{}, err
	}
	if len(bs) == 0 {
		return Block{}, fmt.Errorf("%w: block %d", ErrNotFound, id)
	}
	return bs[0], nil
}
