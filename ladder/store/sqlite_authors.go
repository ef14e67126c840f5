package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

var _ Authors = (*SQLite)(nil)

// AddAuthor adds an author with the hash of their token.
func (s *SQLite) AddAuthor(ctx context.Context, name, tokenHash string) (Author, error) {
	now := time.Now().UnixMilli()
	res, err := s.db.ExecContext(ctx, `INSERT INTO authors (name, token_hash, created_ms) VALUES (?, ?, ?)`, name, tokenHash, now)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return Author{}, fmt.Errorf("%w: an author named %q exists", ErrDuplicate, name)
		}
		return Author{}, err
	}
	id, err := res.LastInsertId()
	return Author{ID: id, Name: name, Created: fromMillis(now)}, err
}

// RevokeAuthor revokes the author's token.
func (s *SQLite) RevokeAuthor(ctx context.Context, name string) (Author, error) {
	now := time.Now().UnixMilli()
	var a Author
	var created int64
	err := s.db.QueryRowContext(ctx, `UPDATE authors SET revoked_ms = ? WHERE name = ? AND revoked_ms IS NULL
		RETURNING id, name, created_ms`, now, name).Scan(&a.ID, &a.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no author named %q with a valid token", ErrNotFound, name)
	}
	a.Created, a.Revoked = fromMillis(created), fromMillis(now)
	return a, err
}

// AuthorByToken finds the author of an unrevoked token.
func (s *SQLite) AuthorByToken(ctx context.Context, tokenHash string) (Author, error) {
	var a Author
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT id, name, created_ms FROM authors WHERE token_hash = ? AND revoked_ms IS NULL`, tokenHash).
		Scan(&a.ID, &a.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no such token", ErrNotFound)
	}
	a.Created = fromMillis(created)
	return a, err
}

// Owner is the author owning botName.
func (s *SQLite) Owner(ctx context.Context, botName string) (int64, bool, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT author_id FROM bot_owners WHERE name = ?`, botName).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// Claim makes author the owner of a name nobody has.
func (s *SQLite) Claim(ctx context.Context, author int64, botName string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var owner int64
	err = tx.QueryRowContext(ctx, `SELECT author_id FROM bot_owners WHERE name = ?`, botName).Scan(&owner)
	switch {
	case err == nil && owner == author:
		return nil
	case err == nil:
		return fmt.Errorf("%w: bot %q belongs to another author", ErrDuplicate, botName)
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bots WHERE name = ?`, botName).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: bot %q was added by the ladder's operator", ErrDuplicate, botName)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_owners (name, author_id) VALUES (?, ?)`, botName, author); err != nil {
		return err
	}
	return tx.Commit()
}

// CountSubmission counts one submission now.
func (s *SQLite) CountSubmission(ctx context.Context, author int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO submissions (author_id, at_ms) VALUES (?, ?)`, author, time.Now().UnixMilli())
	return err
}

// Owned lists the names an author owns.
func (s *SQLite) Owned(ctx context.Context, author int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM bot_owners WHERE author_id = ? ORDER BY name`, author)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Owners maps each owned bot name to its author's name.
func (s *SQLite) Owners(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT o.name, a.name FROM bot_owners o JOIN authors a ON a.id = o.author_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var bot, author string
		if err := rows.Scan(&bot, &author); err != nil {
			return nil, err
		}
		out[bot] = author
	}
	return out, rows.Err()
}

// Submissions counts the author's submissions since a moment.
func (s *SQLite) Submissions(ctx context.Context, author int64, since time.Time) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM submissions WHERE author_id = ? AND at_ms >= ?`, author, since.UnixMilli()).Scan(&n)
	return n, err
}
