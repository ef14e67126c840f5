package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgSameProgramElsewhere refuses a program active under another name, as the SQLite
// store does.
func pgSameProgramElsewhere(ctx context.Context, tx pgx.Tx, b Bot) error {
	if b.Builtin != "" {
		return nil
	}
	var name string
	var version int
	err := tx.QueryRow(ctx, `SELECT name, version FROM bots WHERE sha256 = $1 AND name <> $2 AND retired IS NULL`, b.SHA256, b.Name).
		Scan(&name, &version)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("%w: the same program (sha256 %.12s) is on the ladder as %s v%d", ErrDuplicate, b.SHA256, name, version)
}

// ReactivateBot brings back the latest version of name after it was retired.
func (p *Postgres) ReactivateBot(ctx context.Context, name string) (Bot, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE bots IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return Bot{}, err
	}
	rows, err := tx.Query(ctx, `SELECT id, name, version, sha256, path, builtin, added, retired
		FROM bots WHERE name = $1 ORDER BY version DESC LIMIT 1`, name)
	if err != nil {
		return Bot{}, err
	}
	b, err := pgx.CollectExactlyOneRow(rows, scanBot)
	if errors.Is(err, pgx.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no bot named %q", ErrNotFound, name)
	}
	if err != nil {
		return Bot{}, err
	}
	if b.Active() {
		return Bot{}, fmt.Errorf("bot %s v%d is active already", b.Name, b.Version)
	}
	if err := pgSameProgramElsewhere(ctx, tx, b); err != nil {
		return Bot{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE bots SET retired = NULL WHERE id = $1`, b.ID); err != nil {
		return Bot{}, err
	}
	b.Retired = time.Time{}
	return b, tx.Commit(ctx)
}
