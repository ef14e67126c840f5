package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmts keeps the statements of the games' path (a block's row, a game's record)
// prepared for the store's life: preparing them again for every game was 1.3% of a
// `ladder run`'s samples (SQLite parses and plans each time), as much as executing
// them. database/sql keeps such a statement prepared on each connection it has run
// on, and a transaction on one of those uses it as it is.
type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// stmt is query, prepared once per store, to run in tx.
func (s *SQLite) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	s.prepared.mu.Lock()
	defer s.prepared.mu.Unlock()
	st := s.prepared.m[query]
	if st == nil {
		var err error
		if st, err = s.db.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		if s.prepared.m == nil {
			s.prepared.m = map[string]*sql.Stmt{}
		}
		s.prepared.m[query] = st
	}
	return tx.StmtContext(ctx, st), nil
}

// closeStmts closes the prepared statements (before the database).
func (s *SQLite) closeStmts() {
	s.prepared.mu.Lock()
	defer s.prepared.mu.Unlock()
	for _, st := range s.prepared.m {
		_ = st.Close()
	}
	s.prepared.m = nil
}

// txExec runs query, prepared once per store, in tx.
func (s *SQLite) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.stmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// txQueryRow runs query, prepared once per store, in tx for one row.
func (s *SQLite) txQueryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Row, error) {
	st, err := s.stmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(ctx, args...), nil
}
