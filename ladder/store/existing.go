package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// OpenExisting opens the ladder database at path for the commands that only read it
// (standings, the bot list): a missing file is an error, never a new database. Where
// the file and its folder are writable it opens as Open does (bringing an older schema
// up to date); otherwise it opens read-only, so that a ladder in a read-only folder can
// still be read.
func OpenExisting(path string) (*SQLite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no ladder database at %s (check --db; a ladder starts with `arena bot add`)", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", abs, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("ladder database %s is a directory", abs)
	}
	if unix.Access(abs, unix.W_OK) == nil && unix.Access(filepath.Dir(abs), unix.W_OK) == nil {
		return Open(abs)
	}
	return openReadOnly(abs)
}

// openReadOnly opens a database this process may not write. SQLite in WAL mode needs
// to create the -shm file even to read; where it cannot, the file is read as immutable,
// which is exact for a ladder whose last writer closed cleanly (its WAL is then merged
// into the file).
func openReadOnly(path string) (*SQLite, error) {
	if err := checkFile(path); err != nil {
		return nil, err
	}
	var lastErr error
	for _, extra := range []string{"", "immutable"} {
		q := url.Values{}
		q.Set("mode", "ro")
		q.Set("_busy_timeout", "10000")
		if extra != "" {
			q.Set(extra, "1")
		}
		dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}).String()
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("ladder database %s: %w", path, err)
		}
		s := &SQLite{db: db, path: path}
		if err := s.checkReadable(context.Background()); err != nil {
			db.Close()
			lastErr = err
			continue
		}
		return s, nil
	}
	return nil, fmt.Errorf("ladder database %s (read-only): %w", path, explain(lastErr))
}

// checkReadable refuses a read-only database whose schema is not the one this program
// writes: it cannot be brought up to date without writing.
func (s *SQLite) checkReadable(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v != len(migrations) {
		return fmt.Errorf("its schema version is %d, this arena reads %d, and the file cannot be written to update it", v, len(migrations))
	}
	return nil
}
