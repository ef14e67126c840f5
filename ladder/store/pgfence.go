package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

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

// RecordMatchesFenced is RecordMatchFenced for several games of one job, in one
// transaction when it can: the fence, the transaction's begin and commit and their
// round trips are paid once for the games of a block, not per game. It returns the
// games it recorded, in order; a game already recorded (ErrDuplicate) is skipped. When
// the one transaction fails for any reason but the fence, the games are recorded one
// by one, so that each gets RecordMatchFenced's verdict: those before the first that
// fails are recorded, and that one's error is returned.
func (p *Postgres) RecordMatchesFenced(ctx context.Context, ms []Match, f Fence) ([]Match, error) {
	if len(ms) > 1 && allSeated(ms) {
		games := slices.Clone(ms)
		err := p.writeGames(ctx, games, func(b *pgx.Batch) func() error {
			return jobtable.QueueHold(b, f.Job, f.Attempt)
		})
		switch {
		case err == nil:
			return games, nil
		case errors.Is(err, ErrFenced):
			return nil, err
		}
	}
	var done []Match
	for _, m := range ms {
		got, err := p.RecordMatchFenced(ctx, m, f)
		if errors.Is(err, ErrDuplicate) {
			continue
		}
		if err != nil {
			return done, err
		}
		done = append(done, got)
	}
	return done, nil
}

func allSeated(ms []Match) bool {
	for _, m := range ms {
		if len(m.Seats) == 0 {
			return false
		}
	}
	return true
}
