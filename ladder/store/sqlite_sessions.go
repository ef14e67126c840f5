package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// StartSession keeps a session until expires and drops the expired ones.
func (s *SQLite) StartSession(ctx context.Context, idHash string, author int64, expires time.Time) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE expires_ms <= ?`, time.Now().UnixMilli()); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO sessions (id_hash, author_id, expires_ms) VALUES (?, ?, ?)`,
		idHash, author, expires.UnixMilli())
	return err
}

// SessionAuthor finds the author of an unexpired session with a valid token.
func (s *SQLite) SessionAuthor(ctx context.Context, idHash string) (Author, error) {
	var a Author
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT a.id, a.name, a.created_ms FROM sessions x JOIN authors a ON a.id = x.author_id
		WHERE x.id_hash = ? AND x.expires_ms > ? AND a.revoked_ms IS NULL`, idHash, time.Now().UnixMilli()).Scan(&a.ID, &a.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no such session", ErrNotFound)
	}
	a.Created = fromMillis(created)
	return a, err
}

// EndSession ends one session.
func (s *SQLite) EndSession(ctx context.Context, idHash string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = ?`, idHash)
	return err
}

// RotateToken replaces the author's token and ends their sessions in one transaction.
func (s *SQLite) RotateToken(ctx context.Context, name, tokenHash string) (Author, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Author{}, err
	}
	defer tx.Rollback()
	var a Author
	var created int64
	err = tx.QueryRowContext(ctx, `UPDATE authors SET token_hash = ? WHERE name = ? AND revoked_ms IS NULL
		RETURNING id, name, created_ms`, tokenHash, name).Scan(&a.ID, &a.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no author named %q with a valid token", ErrNotFound, name)
	}
	if err != nil {
		return Author{}, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE author_id = ?`, a.ID); err != nil {
		return Author{}, err
	}
	a.Created = fromMillis(created)
	return a, tx.Commit()
}

// Unclaim gives up a claim on a name of which no version was added.
func (s *SQLite) Unclaim(ctx context.Context, author int64, botName string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM bot_owners WHERE name = ? AND author_id = ?
		AND NOT EXISTS (SELECT 1 FROM bots WHERE name = ?)`, botName, author, botName)
	return err
}
