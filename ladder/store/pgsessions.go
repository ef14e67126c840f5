package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// StartSession keeps a session until expires and drops the expired ones.
func (p *Postgres) StartSession(ctx context.Context, idHash string, author int64, expires time.Time) error {
	if _, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE expires <= now()`); err != nil {
		return err
	}
	_, err := p.pool.Exec(ctx, `INSERT INTO sessions (id_hash, author_id, expires) VALUES ($1, $2, $3)`, idHash, author, expires)
	return err
}

// SessionAuthor finds the author of an unexpired session with a valid token. Expiry
// is judged by the service's clock, which set it, not the database's.
func (p *Postgres) SessionAuthor(ctx context.Context, idHash string) (Author, error) {
	var a Author
	err := p.pool.QueryRow(ctx, `SELECT a.id, a.name, a.created FROM sessions x JOIN authors a ON a.id = x.author_id
		WHERE x.id_hash = $1 AND x.expires > $2 AND a.revoked IS NULL`, idHash, time.Now()).Scan(&a.ID, &a.Name, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no such session", ErrNotFound)
	}
	a.Created = a.Created.UTC()
	return a, err
}

// EndSession ends one session.
func (p *Postgres) EndSession(ctx context.Context, idHash string) error {
	_, err := p.pool.Exec(ctx, `DELETE FROM sessions WHERE id_hash = $1`, idHash)
	return err
}

// RotateToken replaces the author's token and ends their sessions in one transaction.
func (p *Postgres) RotateToken(ctx context.Context, name, tokenHash string) (Author, error) {
	var a Author
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE authors SET token_hash = $1 WHERE name = $2 AND revoked IS NULL
			RETURNING id, name, created`, tokenHash, name).Scan(&a.ID, &a.Name, &a.Created)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: no author named %q with a valid token", ErrNotFound, name)
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM sessions WHERE author_id = $1`, a.ID)
		return err
	})
	if err != nil {
		return Author{}, err
	}
	a.Created = a.Created.UTC()
	return a, nil
}

// Unclaim gives up a claim on a name of which no version was added.
func (p *Postgres) Unclaim(ctx context.Context, author int64, botName string) error {
	_, err := p.pool.Exec(ctx, `DELETE FROM bot_owners WHERE name = $1 AND author_id = $2
		AND NOT EXISTS (SELECT 1 FROM bots WHERE name = $1)`, botName, author)
	return err
}
