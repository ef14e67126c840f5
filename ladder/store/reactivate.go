package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// sameProgramElsewhere refuses a program that is already active under another name:
// one submitted program plays under one name, or its games would count twice. Built-in
// bots are exempt: they are the reference players, and a table of more seats than
// there are built-ins may need one twice (as random and random2).
func sameProgramElsewhere(ctx context.Context, tx *sql.Tx, b Bot) error {
	if b.Builtin != "" {
		return nil
	}
	var name string
	var version int
	err := tx.QueryRowContext(ctx, `SELECT name, version FROM bots WHERE sha256 = ? AND name <> ? AND retired_ms IS NULL`, b.SHA256, b.Name).
		Scan(&name, &version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("%w: the same program (sha256 %.12s) is on the ladder as %s v%d", ErrDuplicate, b.SHA256, name, version)
}

// ReactivateBot brings back the latest version of name after it was retired: it plays
// again, and its recorded games keep counting for it. The same program active under
// another name is refused, as AddBot refuses it.
func (s *SQLite) ReactivateBot(ctx context.Context, name string) (Bot, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback()
	var b Bot
	var added, retired int64
	err = tx.QueryRowContext(ctx, `SELECT id, name, version, sha256, path, builtin, added_ms, COALESCE(retired_ms, 0)
		FROM bots WHERE name = ? ORDER BY version DESC LIMIT 1`, name).
		Scan(&b.ID, &b.Name, &b.Version, &b.SHA256, &b.Path, &b.Builtin, &added, &retired)
	if errors.Is(err, sql.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no bot named %q", ErrNotFound, name)
	}
	if err != nil {
		return Bot{}, err
	}
	if retired == 0 {
		return Bot{}, fmt.Errorf("bot %s v%d is active already", b.Name, b.Version)
	}
	if err := sameProgramElsewhere(ctx, tx, b); err != nil {
		return Bot{}, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE bots SET retired_ms = NULL WHERE id = ?`, b.ID); err != nil {
		return Bot{}, err
	}
	b.Added = fromMillis(added)
	return b, tx.Commit()
}
