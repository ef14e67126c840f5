package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Suspensions lists every suspension, lifted ones included.
func (p *Postgres) Suspensions(ctx context.Context) ([]Suspension, error) {
	rows, err := p.pool.Query(ctx, suspensionsQuery+` ORDER BY bot_id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanSuspension)
}

const suspensionsQuery = `SELECT bot_id, reason, at, lifted, count_after FROM suspensions`

func scanSuspension(row pgx.CollectableRow) (Suspension, error) {
	var x Suspension
	var at time.Time
	var lifted *time.Time
	err := row.Scan(&x.Bot, &x.Reason, &at, &lifted, &x.CountAfter)
	x.At, x.Lifted = at.UTC(), fromPg(lifted)
	return x, err
}

// SuspendBot suspends bot for reason; a later suspension replaces a lifted one and
// keeps its count_after.
func (p *Postgres) SuspendBot(ctx context.Context, bot int64, reason string) error {
	_, err := p.pool.Exec(ctx, `INSERT INTO suspensions (bot_id, reason, at) VALUES ($1, $2, $3)
		ON CONFLICT (bot_id) DO UPDATE SET reason = excluded.reason, at = excluded.at, lifted = NULL`,
		bot, reason, pgTime(time.Now()))
	if err != nil {
		return fmt.Errorf("suspending bot %d: %w", bot, err)
	}
	return nil
}

// ReinstateBot lifts the suspension of name's active version; its timeouts and
// crashes count afresh from the next recorded game.
func (p *Postgres) ReinstateBot(ctx context.Context, name string) (Bot, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback(ctx)
	var b Bot
	err = tx.QueryRow(ctx, `SELECT b.id, b.name, b.version FROM bots b JOIN suspensions x ON x.bot_id = b.id
		WHERE b.name = $1 AND b.retired IS NULL AND x.lifted IS NULL`, name).Scan(&b.ID, &b.Name, &b.Version)
	if errors.Is(err, pgx.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no suspended bot named %q", ErrNotFound, name)
	}
	if err != nil {
		return Bot{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE suspensions SET lifted = $1, count_after = (SELECT COALESCE(MAX(id), 0) FROM matches)
		WHERE bot_id = $2`, pgTime(time.Now()), b.ID); err != nil {
		return Bot{}, err
	}
	return b, tx.Commit(ctx)
}

// Recorded lists the replay paths of block's recorded games.
func (p *Postgres) Recorded(ctx context.Context, block int64) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT replay FROM matches WHERE block_id = $1 ORDER BY rotation`, block)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// HeldBots are those of bots (IDs) that may not play now: retired, or under a
// suspension not lifted. One round trip; a worker asks between the blocks of a job.
func (p *Postgres) HeldBots(ctx context.Context, bots []int64) ([]int64, error) {
	rows, err := p.pool.Query(ctx, `SELECT id FROM bots WHERE id = ANY ($1) AND retired IS NOT NULL
		UNION SELECT bot_id FROM suspensions WHERE bot_id = ANY ($1) AND lifted IS NULL`, bots)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}
