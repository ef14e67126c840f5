package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite is the Store in one SQLite file (pure Go driver, no cgo), in WAL mode so that
// standings can be read while a run writes. A committed game survives the process
// being killed at any moment (synchronousMode says what an OS crash can cost).
type SQLite struct {
	db   *sql.DB
	path string
	// writing queues this process's writers of the games' path (NewBlock,
	// RecordMatch, SuspendBot) here rather than in SQLite: a writer that finds the
	// database locked sleeps in SQLite's busy handler (1, 2, 5, 10 ms ...) however
	// soon the lock frees, and at -j 2 the blocks' records collided every few games.
	// Readers are not queued (WAL); other processes still wait on the busy timeout.
	writing sync.Mutex
	// prepared keeps the games' path statements (sqlite_stmts.go).
	prepared stmts
}

// synchronousMode is the database's sync setting: NORMAL, which in WAL mode syncs the
// log only at checkpoints, not at every commit. A commit is in the log (the OS's page
// cache) when it returns, so a killed process loses nothing and the file is never
// damaged; an OS crash or power loss can take back the games committed since the
// last checkpoint, and their blocks are played again (Tidy removes a replay left
// without its record). FULL synced every game: 1.6 ms of wall time per commit, on the
// path of each block's last game, for games that the ladder can play again.
const synchronousMode = "NORMAL"

var _ Store = (*SQLite)(nil)

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Open opens the ladder database at path, creating it (and its directory) when
// missing and bringing an older schema up to date. A file that is not a ladder
// database, is damaged, or has a schema newer than this program knows gives an error
// and is left exactly as it was.
func Open(path string) (*SQLite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	path = abs
	if err := checkFile(path); err != nil {
		return nil, err
	}
	// A new folder is the ladder's own; one that is there may be the user's, and
	// only the ladder's files in it are tightened (tightenDatabase).
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	if err := createDatabase(path); err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_synchronous", synchronousMode)
	q.Set("_foreign_keys", "1")
	// Writers take the lock when they begin, so two writers queue on the busy timeout
	// instead of one failing when it upgrades a read lock.
	q.Set("_txlock", "immediate")
	// A URI, so that a name with '?', '#' or '%' in it is the file's name and not
	// the start of parameters.
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	s := &SQLite{db: db, path: path}
	if err := s.migrate(context.Background(), len(migrations)); err != nil {
		db.Close()
		return nil, fmt.Errorf("ladder database %s: %w", path, explain(err))
	}
	// WAL is a property of the file: set it only once the file is known to be ours,
	// since setting it rewrites the header.
	if _, err := db.Exec(`PRAGMA journal_mode = WAL`); err != nil {
		db.Close()
		return nil, fmt.Errorf("ladder database %s: %w", path, explain(err))
	}
	// Only now: a file that is not a ladder's is left exactly as it was.
	if err := tightenDatabase(path); err != nil {
		db.Close()
		return nil, fmt.Errorf("ladder database %s: %w", path, err)
	}
	return s, nil
}

// checkFile refuses, before any driver touches it, a file that exists with content
// that is not an SQLite database.
func checkFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ladder database %s: %w", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return fmt.Errorf("ladder database %s is a directory", path)
	}
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 {
		return nil // an empty file becomes a new database
	}
	if err != nil || !bytes.Equal(head, sqliteHeader) {
		return fmt.Errorf("ladder database %s is not an SQLite database; it was left untouched", path)
	}
	return nil
}

// explain turns SQLite's codes for a damaged file into words.
func explain(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return fmt.Errorf("the file is damaged or not a database (%v); it was left untouched", err)
		}
	}
	return err
}

// Dir is the directory of the database file; bot executables are kept under it.
func (s *SQLite) Dir() string { return filepath.Dir(s.path) }

// Path is the database file.
func (s *SQLite) Path() string { return s.path }

// Close closes the database.
func (s *SQLite) Close() error {
	s.closeStmts()
	return s.db.Close()
}

// migrations[i] brings the schema from version i to i+1. They are only ever appended
// to: a released migration never changes.
var migrations = []string{
	// 1: bots. A name has versions; at most one is active.
	`CREATE TABLE bots (
		id         INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		version    INTEGER NOT NULL,
		sha256     TEXT    NOT NULL,
		path       TEXT    NOT NULL,
		builtin    TEXT    NOT NULL,
		added_ms   INTEGER NOT NULL,
		retired_ms INTEGER,
		UNIQUE (name, version)
	);
	CREATE UNIQUE INDEX bots_one_active ON bots (name) WHERE retired_ms IS NULL;`,

	// 2: blocks and the games recorded in them, one row per seat. Seeds are unsigned
	// 64-bit numbers stored in their two's-complement bits.
	`CREATE TABLE blocks (
		id         INTEGER PRIMARY KEY,
		game       TEXT    NOT NULL,
		seed       INTEGER NOT NULL,
		rotations  INTEGER NOT NULL CHECK (rotations > 0),
		created_ms INTEGER NOT NULL
	);
	CREATE TABLE block_bots (
		block_id INTEGER NOT NULL REFERENCES blocks (id),
		position INTEGER NOT NULL,
		bot_id   INTEGER NOT NULL REFERENCES bots (id),
		PRIMARY KEY (block_id, position)
	);
	CREATE TABLE matches (
		id          INTEGER PRIMARY KEY,
		block_id    INTEGER NOT NULL REFERENCES blocks (id),
		rotation    INTEGER NOT NULL,
		game        TEXT    NOT NULL,
		seed        INTEGER NOT NULL,
		adjudicated INTEGER NOT NULL,
		replay      TEXT    NOT NULL,
		started_ms  INTEGER NOT NULL,
		finished_ms INTEGER NOT NULL,
		UNIQUE (block_id, rotation)
	);
	CREATE INDEX matches_game ON matches (game, id);
	CREATE TABLE match_seats (
		match_id INTEGER NOT NULL REFERENCES matches (id),
		seat     INTEGER NOT NULL,
		bot_id   INTEGER NOT NULL REFERENCES bots (id),
		place    INTEGER NOT NULL,
		score    INTEGER NOT NULL,
		ending   TEXT    NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX match_seats_bot ON match_seats (bot_id);`,

	// 3: suspensions. A bot past its share of timeouts and crashes plays no more
	// until reinstated; its share then counts only games after count_after.
	`CREATE TABLE suspensions (
		bot_id      INTEGER PRIMARY KEY REFERENCES bots (id),
		reason      TEXT    NOT NULL,
		at_ms       INTEGER NOT NULL,
		lifted_ms   INTEGER,
		count_after INTEGER NOT NULL DEFAULT 0
	);`,

	// 4: authors, who own bot names and submit their versions over the ladder's
	// service. A token is kept only as its SHA-256; submissions are counted per day.
	`CREATE TABLE authors (
		id         INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL UNIQUE,
		token_hash TEXT    NOT NULL UNIQUE,
		created_ms INTEGER NOT NULL,
		revoked_ms INTEGER
	);
	CREATE TABLE bot_owners (
		name      TEXT    PRIMARY KEY,
		author_id INTEGER NOT NULL REFERENCES authors (id)
	);
	CREATE TABLE submissions (
		id        INTEGER PRIMARY KEY,
		author_id INTEGER NOT NULL REFERENCES authors (id),
		at_ms     INTEGER NOT NULL
	);
	CREATE INDEX submissions_author ON submissions (author_id, at_ms);`,

	// 5: the authors' browser sessions, each kept as the SHA-256 of its random ID.
	`CREATE TABLE sessions (
		id_hash    TEXT    PRIMARY KEY,
		author_id  INTEGER NOT NULL REFERENCES authors (id),
		expires_ms INTEGER NOT NULL
	);
	CREATE INDEX sessions_author ON sessions (author_id);`,

	// 6: replays kept with their games (Match.ReplayData), gzipped: a file per game
	// cost `ladder run` more CPU than the game's record. Games recorded before, or
	// without ReplayData, keep their replay in the file matches.replay names.
	`CREATE TABLE replays (
		match_id INTEGER PRIMARY KEY REFERENCES matches (id),
		gzip     BLOB    NOT NULL
	);`,
}

// migrate brings the schema up to version target, one migration per transaction.
func (s *SQLite) migrate(ctx context.Context, target int) error {
	for {
		done, err := s.migrateOne(ctx, target)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, if any is due, under the write lock, so
// that two programs opening one new file do not both migrate it.
func (s *SQLite) migrateOne(ctx context.Context, target int) (done bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return false, err
	}
	switch {
	case v > len(migrations):
		return false, fmt.Errorf("its schema version %d is newer than this arena knows (%d); use a newer arena", v, len(migrations))
	case v >= target:
		return true, nil
	}
	if v == 0 {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE schema_version (version INTEGER NOT NULL)`); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version VALUES (0)`); err != nil {
			return false, err
		}
	}
	if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
		return false, fmt.Errorf("migration %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// schemaVersion is 0 for an empty database. A database with tables but no
// schema_version belongs to something else and is refused.
func schemaVersion(ctx context.Context, tx *sql.Tx) (int, error) {
	var tables []string
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return 0, err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(tables) == 0 {
		return 0, nil
	}
	var v int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return 0, fmt.Errorf("it is an SQLite database but not a ladder's (tables %s, no schema_version); it was left untouched", strings.Join(tables, ", "))
		}
		return 0, fmt.Errorf("reading its schema version: %w", err)
	}
	return v, nil
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// AddBot adds the next version of b.Name and retires the older ones.
func (s *SQLite) AddBot(ctx context.Context, b Bot) (Bot, error) {
	if b.Name == "" {
		return Bot{}, errors.New("a bot needs a name")
	}
	if b.SHA256 == "" {
		return Bot{}, errors.New("a bot needs a digest")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback()
	var last int
	var sha string
	var retired bool
	err = tx.QueryRowContext(ctx, `SELECT version, sha256, retired_ms IS NOT NULL FROM bots WHERE name = ? ORDER BY version DESC LIMIT 1`, b.Name).Scan(&last, &sha, &retired)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return Bot{}, err
	case sha == b.SHA256 && retired:
		return Bot{}, fmt.Errorf("%w: bot %s v%d is this program, retired; bring it back with `arena bot reactivate %s`", ErrDuplicate, b.Name, last, b.Name)
	case sha == b.SHA256:
		return Bot{}, fmt.Errorf("%w: bot %s v%d is this program (sha256 %.12s)", ErrDuplicate, b.Name, last, sha)
	}
	if err := sameProgramElsewhere(ctx, tx, b); err != nil {
		return Bot{}, err
	}
	now := time.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE bots SET retired_ms = ? WHERE name = ? AND retired_ms IS NULL`, now.UnixMilli(), b.Name); err != nil {
		return Bot{}, err
	}
	b.Version, b.Added, b.Retired = last+1, fromMillis(now.UnixMilli()), time.Time{}
	res, err := tx.ExecContext(ctx, `INSERT INTO bots (name, version, sha256, path, builtin, added_ms) VALUES (?, ?, ?, ?, ?, ?)`,
		b.Name, b.Version, b.SHA256, b.Path, b.Builtin, now.UnixMilli())
	if err != nil {
		return Bot{}, err
	}
	if b.ID, err = res.LastInsertId(); err != nil {
		return Bot{}, err
	}
	return b, tx.Commit()
}

// Bots lists the versions, oldest first.
func (s *SQLite) Bots(ctx context.Context, all bool) ([]Bot, error) {
	q := `SELECT id, name, version, sha256, path, builtin, added_ms, COALESCE(retired_ms, 0) FROM bots`
	if !all {
		q += ` WHERE retired_ms IS NULL`
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Bot
	for rows.Next() {
		var b Bot
		var added, retired int64
		if err := rows.Scan(&b.ID, &b.Name, &b.Version, &b.SHA256, &b.Path, &b.Builtin, &added, &retired); err != nil {
			return nil, err
		}
		b.Added, b.Retired = fromMillis(added), fromMillis(retired)
		out = append(out, b)
	}
	return out, rows.Err()
}

// RetireBot retires the active version of name.
func (s *SQLite) RetireBot(ctx context.Context, name string) (Bot, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback()
	var b Bot
	var added int64
	err = tx.QueryRowContext(ctx, `SELECT id, name, version, sha256, path, builtin, added_ms FROM bots WHERE name = ? AND retired_ms IS NULL`, name).
		Scan(&b.ID, &b.Name, &b.Version, &b.SHA256, &b.Path, &b.Builtin, &added)
	if errors.Is(err, sql.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no active bot named %q", ErrNotFound, name)
	}
	if err != nil {
		return Bot{}, err
	}
	now := time.Now().UnixMilli()
	if _, err := tx.ExecContext(ctx, `UPDATE bots SET retired_ms = ? WHERE id = ?`, now, b.ID); err != nil {
		return Bot{}, err
	}
	b.Added, b.Retired = fromMillis(added), fromMillis(now)
	return b, tx.Commit()
}

// NewBlock records a block about to be played.
func (s *SQLite) NewBlock(ctx context.Context, b Block) (Block, error) {
	if b.Rotations < 1 || len(b.Bots) < 1 {
		return Block{}, fmt.Errorf("a block needs bots and rotations, got %d bots and %d rotations", len(b.Bots), b.Rotations)
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Block{}, err
	}
	defer tx.Rollback()
	b.Created = fromMillis(time.Now().UnixMilli())
	res, err := s.txExec(ctx, tx, `INSERT INTO blocks (game, seed, rotations, created_ms) VALUES (?, ?, ?, ?)`,
		b.Game, int64(b.Seed), b.Rotations, millis(b.Created))
	if err != nil {
		return Block{}, err
	}
	if b.ID, err = res.LastInsertId(); err != nil {
		return Block{}, err
	}
	for i, bot := range b.Bots {
		if _, err := s.txExec(ctx, tx, `INSERT INTO block_bots (block_id, position, bot_id) VALUES (?, ?, ?)`, b.ID, i, bot); err != nil {
			return Block{}, fmt.Errorf("block bot %d: %w", bot, err)
		}
	}
	b.Done = nil
	return b, tx.Commit()
}

// OpenBlocks lists the blocks of game still missing rotations.
func (s *SQLite) OpenBlocks(ctx context.Context, game string) ([]Block, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT b.id, b.game, b.seed, b.rotations, b.created_ms
		FROM blocks b
		WHERE b.game = ? AND b.rotations > (SELECT COUNT(*) FROM matches m WHERE m.block_id = b.id)
		ORDER BY b.id`, game)
	if err != nil {
		return nil, err
	}
	var out []Block
	for rows.Next() {
		var b Block
		var seed, created int64
		if err := rows.Scan(&b.ID, &b.Game, &seed, &b.Rotations, &created); err != nil {
			rows.Close()
			return nil, err
		}
		b.Seed, b.Created = uint64(seed), fromMillis(created)
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Bots, err = s.ints(ctx, `SELECT bot_id FROM block_bots WHERE block_id = ? ORDER BY position`, out[i].ID); err != nil {
			return nil, err
		}
		done, err := s.ints(ctx, `SELECT rotation FROM matches WHERE block_id = ? ORDER BY rotation`, out[i].ID)
		if err != nil {
			return nil, err
		}
		for _, r := range done {
			out[i].Done = append(out[i].Done, int(r))
		}
	}
	return out, nil
}

func (s *SQLite) ints(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// RecordMatch writes one game, its seats and its replay (Match.ReplayData, when set)
// in one transaction.
func (s *SQLite) RecordMatch(ctx context.Context, m Match) (Match, error) {
	if len(m.Seats) == 0 {
		return Match{}, errors.New("a game needs seats")
	}
	// Gzipped outside the lock: a replay shrinks about sevenfold (a two-player Ivanhoe
	// game's 10 KB to 1.5 KB) for about 40 µs of CPU more than storing it as it is.
	gz, err := compress(m.ReplayData)
	if err != nil {
		return Match{}, err
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Match{}, err
	}
	defer tx.Rollback()
	var rotations int
	row, err := s.txQueryRow(ctx, tx, `SELECT rotations FROM blocks WHERE id = ?`, m.Block)
	if err == nil {
		err = row.Scan(&rotations)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Match{}, fmt.Errorf("%w: block %d", ErrNotFound, m.Block)
	}
	if err != nil {
		return Match{}, err
	}
	if m.Rotation < 0 || m.Rotation >= rotations {
		return Match{}, fmt.Errorf("rotation %d of block %d, which has rotations 0..%d", m.Rotation, m.Block, rotations-1)
	}
	var existing int64
	if row, err = s.txQueryRow(ctx, tx, `SELECT id FROM matches WHERE block_id = ? AND rotation = ?`, m.Block, m.Rotation); err != nil {
		return Match{}, err
	}
	err = row.Scan(&existing)
	if err == nil {
		return Match{}, fmt.Errorf("%w: block %d rotation %d is game %d", ErrDuplicate, m.Block, m.Rotation, existing)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Match{}, err
	}
	res, err := s.txExec(ctx, tx, `INSERT INTO matches (block_id, rotation, game, seed, adjudicated, replay, started_ms, finished_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		m.Block, m.Rotation, m.Game, int64(m.Seed), m.Adjudicated, m.Replay, millis(m.Started), millis(m.Finished))
	if err != nil {
		return Match{}, err
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return Match{}, err
	}
	for i, st := range m.Seats {
		if _, err := s.txExec(ctx, tx, `INSERT INTO match_seats (match_id, seat, bot_id, place, score, ending) VALUES (?, ?, ?, ?, ?, ?)`,
			m.ID, i, st.Bot, st.Place, st.Score, st.Ending); err != nil {
			return Match{}, fmt.Errorf("seat %d: %w", i, err)
		}
	}
	if gz != nil {
		if _, err := s.txExec(ctx, tx, `INSERT INTO replays (match_id, gzip) VALUES (?, ?)`, m.ID, gz); err != nil {
			return Match{}, fmt.Errorf("replay: %w", err)
		}
	}
	return m, tx.Commit()
}

// Recorded lists the replay paths of block's recorded games.
func (s *SQLite) Recorded(ctx context.Context, block int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT replay FROM matches WHERE block_id = ? ORDER BY rotation`, block)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Matches streams the recorded games of game in the order they were recorded.
func (s *SQLite) Matches(ctx context.Context, game string, fn func(Match) error) error {
	return s.MatchesAfter(ctx, game, 0, fn)
}

// MatchesAfter streams the recorded games of game with an ID above after, in ID order.
func (s *SQLite) MatchesAfter(ctx context.Context, game string, after int64, fn func(Match) error) error {
	where, args := ` WHERE m.id > ?`, []any{after}
	if game != "" {
		where += ` AND m.game = ?`
		args = append(args, game)
	}
	return s.matchesWhere(ctx, where, args, fn)
}

// Match returns the recorded game with that ID.
func (s *SQLite) Match(ctx context.Context, id int64) (Match, error) {
	var found Match
	err := s.matchesWhere(ctx, ` WHERE m.id = ?`, []any{id}, func(m Match) error { found = m; return nil })
	if err == nil && found.ID == 0 {
		err = fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	return found, err
}

func (s *SQLite) matchesWhere(ctx context.Context, where string, args []any, fn func(Match) error) error {
	q := `SELECT m.id, m.block_id, m.rotation, m.game, m.seed, m.adjudicated, m.replay, m.started_ms, m.finished_ms,
			s.seat, s.bot_id, s.place, s.score, s.ending
		FROM matches m JOIN match_seats s ON s.match_id = m.id` + where
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY m.id, s.seat`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur Match
	flush := func() error {
		if cur.ID == 0 {
			return nil
		}
		err := fn(cur)
		cur = Match{}
		return err
	}
	for rows.Next() {
		var id, block, seed, started, finished int64
		var rot int
		var g, replay string
		var adj bool
		var st Seat
		var seat int
		if err := rows.Scan(&id, &block, &rot, &g, &seed, &adj, &replay, &started, &finished, &seat, &st.Bot, &st.Place, &st.Score, &st.Ending); err != nil {
			return err
		}
		if id != cur.ID {
			if err := flush(); err != nil {
				return err
			}
			cur = Match{ID: id, Block: block, Rotation: rot, Game: g, Seed: uint64(seed), Adjudicated: adj, Replay: replay,
				Started: fromMillis(started), Finished: fromMillis(finished)}
		}
		cur.Seats = append(cur.Seats, st)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// Suspensions lists every suspension, lifted ones included.
func (s *SQLite) Suspensions(ctx context.Context) ([]Suspension, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT bot_id, reason, at_ms, COALESCE(lifted_ms, 0), count_after FROM suspensions ORDER BY bot_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Suspension
	for rows.Next() {
		var x Suspension
		var at, lifted int64
		if err := rows.Scan(&x.Bot, &x.Reason, &at, &lifted, &x.CountAfter); err != nil {
			return nil, err
		}
		x.At, x.Lifted = fromMillis(at), fromMillis(lifted)
		out = append(out, x)
	}
	return out, rows.Err()
}

// SuspendBot suspends bot for reason; a later suspension replaces a lifted one and
// keeps its count_after.
func (s *SQLite) SuspendBot(ctx context.Context, bot int64, reason string) error {
	s.writing.Lock()
	defer s.writing.Unlock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO suspensions (bot_id, reason, at_ms) VALUES (?, ?, ?)
		ON CONFLICT (bot_id) DO UPDATE SET reason = excluded.reason, at_ms = excluded.at_ms, lifted_ms = NULL`,
		bot, reason, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("suspending bot %d: %w", bot, err)
	}
	return nil
}

// ReinstateBot lifts the suspension of name's active version; its timeouts and
// crashes count afresh from the next recorded game.
func (s *SQLite) ReinstateBot(ctx context.Context, name string) (Bot, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback()
	var b Bot
	err = tx.QueryRowContext(ctx, `SELECT b.id, b.name, b.version FROM bots b JOIN suspensions x ON x.bot_id = b.id
		WHERE b.name = ? AND b.retired_ms IS NULL AND x.lifted_ms IS NULL`, name).Scan(&b.ID, &b.Name, &b.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no suspended bot named %q", ErrNotFound, name)
	}
	if err != nil {
		return Bot{}, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE suspensions SET lifted_ms = ?, count_after = (SELECT COALESCE(MAX(id), 0) FROM matches)
		WHERE bot_id = ?`, time.Now().UnixMilli(), b.ID); err != nil {
		return Bot{}, err
	}
	return b, tx.Commit()
}
