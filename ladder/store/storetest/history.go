// Package storetest writes large synthetic ladder histories for tests and benchmarks
// of what reads a ladder: a million games through RecordMatch would take many
// minutes, so the games are generated inside SQLite by one statement per table.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/arena-games/arena/ladder/store"
)

// Game is the game every synthetic history is of.
const Game = "ivanhoe"

// History describes a synthetic history.
type History struct {
	// Games is how many games, in blocks of two (one deal in both seat rotations).
	Games int
	// Bots is how many bot versions play, pairs chosen by a fixed formula; at least 2.
	Bots int
}

// WriteSQLite makes a SQLite ladder at path (which must not exist) holding h: bots
// named b1, b2... (built-in random as b1, the anchor), and h.Games games of two seats
// between them. Results are a fixed function of the block and the bots (the higher
// numbered bot wins more often, ties happen) and every 97th block's second game is a
// crash of one seat, so totals, forfeits and ratings are all non-trivial.
func WriteSQLite(ctx context.Context, path string, h History) error {
	if h.Bots < 2 || h.Games < 2 {
		return fmt.Errorf("a history needs 2 bots and 2 games, not %d and %d", h.Bots, h.Games)
	}
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	for i := 1; i <= h.Bots; i++ {
		b := store.Bot{Name: fmt.Sprintf("b%d", i), Builtin: "heuristic", SHA256: fmt.Sprintf("synthetic-%d", i)}
		if i == 1 {
			b.Builtin = "random"
		}
		if _, err := st.AddBot(ctx, b); err != nil {
			st.Close()
			return err
		}
	}
	if err := st.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Clean(path))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return fill(ctx, db, h)
}

// fill writes the blocks and games in one transaction. Bot a(b) and c(b) of block b
// are two different bots (IDs 1..Bots in a fresh ladder); match 2b-1+rot is rotation
// rot of block b.
func fill(ctx context.Context, db *sql.DB, h History) error {
	blocks := h.Games / 2
	k := h.Bots
	a := fmt.Sprintf("(1 + (b * 7919) %% %d)", k)
	c := fmt.Sprintf("(1 + ((b * 7919) %% %d + 1 + (b * 104729) %% %d) %% %d)", k, k-1, k)
	// aAhead is 1 when a finished ahead, 0 behind, 2 for a tie.
	aAhead := fmt.Sprintf("(CASE WHEN (b * 31 + rot * 17) %% 10 = 9 THEN 2 WHEN (b * 31 + rot * 17) %% 10 < 3 + 4 * (%s > %s) THEN 1 ELSE 0 END)", a, c)
	gen := fmt.Sprintf(`WITH RECURSIVE n(b) AS (SELECT 1 UNION ALL SELECT b + 1 FROM n WHERE b < %d),
		g(b, rot) AS (SELECT b, 0 FROM n UNION ALL SELECT b, 1 FROM n) `, blocks)
	const t0 = 1_700_000_000_000
	stmts := []string{
		`PRAGMA synchronous = OFF`,
		`BEGIN`,
		fmt.Sprintf(`WITH RECURSIVE n(b) AS (SELECT 1 UNION ALL SELECT b + 1 FROM n WHERE b < %d)
			INSERT INTO blocks (id, game, seed, rotations, created_ms) SELECT b, '%s', b, 2, %d + b * 1000 FROM n`, blocks, Game, t0),
		gen + fmt.Sprintf(`INSERT INTO block_bots (block_id, position, bot_id) SELECT b, rot, CASE rot WHEN 0 THEN %s ELSE %s END FROM g ORDER BY b, rot`, a, c),
		gen + fmt.Sprintf(`INSERT INTO matches (id, block_id, rotation, game, seed, adjudicated, replay, started_ms, finished_ms)
			SELECT 2 * b - 1 + rot, b, rot, '%s', b, 0, '', %d + b * 1000 + rot * 500, %d + b * 1000 + rot * 500 + 400 FROM g ORDER BY b, rot`, Game, t0, t0),
		// Seat s of rotation rot holds a when s = rot (rotation 1 swaps the seats).
		gen + fmt.Sprintf(`, s(seat) AS (SELECT 0 UNION ALL SELECT 1)
			INSERT INTO match_seats (match_id, seat, bot_id, place, score, ending)
			SELECT 2 * b - 1 + rot, seat,
				CASE WHEN seat = rot THEN %[1]s ELSE %[2]s END,
				CASE %[3]s WHEN 2 THEN 0 WHEN 1 THEN (seat <> rot) ELSE (seat = rot) END,
				10 - seat,
				CASE WHEN b %% 97 = 0 AND rot = 1 AND seat = 1 THEN 'crash' ELSE 'ok' END
			FROM g, s ORDER BY b, rot, seat`, a, c, aAhead),
		`COMMIT`,
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("writing the synthetic history: %w", err)
		}
	}
	return nil
}

// WritePostgres makes the PostgreSQL ladder at url (an empty database or schema; dir
// its local cache) hold h, as WriteSQLite does, with the server generating the rows.
func WritePostgres(ctx context.Context, url, dir string, h History) error {
	if h.Bots < 2 || h.Games < 2 {
		return fmt.Errorf("a history needs 2 bots and 2 games, not %d and %d", h.Bots, h.Games)
	}
	st, err := store.OpenPostgres(ctx, url, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	first := int64(0)
	for i := 1; i <= h.Bots; i++ {
		b := store.Bot{Name: fmt.Sprintf("b%d", i), Builtin: "heuristic", SHA256: fmt.Sprintf("synthetic-%d", i)}
		if i == 1 {
			b.Builtin = "random"
		}
		added, err := st.AddBot(ctx, b)
		if err != nil {
			return err
		}
		if i == 1 {
			first = added.ID
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, pgFill(h, first)); err != nil {
		return fmt.Errorf("writing the synthetic history: %w", err)
	}
	return nil
}

// pgFill is fill's SQL for PostgreSQL; bot IDs start at first.
func pgFill(h History, first int64) string {
	blocks, k := h.Games/2, h.Bots
	a := fmt.Sprintf("(%d + (b * 7919) %% %d)", first, k)
	c := fmt.Sprintf("(%d + ((b * 7919) %% %d + 1 + (b * 104729) %% %d) %% %d)", first, k, k-1, k)
	aAhead := fmt.Sprintf("(CASE WHEN (b * 31 + rot * 17) %% 10 = 9 THEN 2 WHEN (b * 31 + rot * 17) %% 10 < 3 + 4 * (%s > %s)::int THEN 1 ELSE 0 END)", a, c)
	gen := fmt.Sprintf("generate_series(1, %d::bigint) b, generate_series(0, 1) rot", blocks)
	return fmt.Sprintf(`
		INSERT INTO blocks (id, game, seed, rotations, created) SELECT b, '%[1]s', b, 2, to_timestamp(1700000000 + b) FROM generate_series(1, %[2]d::bigint) b;
		INSERT INTO block_bots (block_id, position, bot_id) SELECT b, rot, CASE rot WHEN 0 THEN %[3]s ELSE %[4]s END FROM %[5]s;
		INSERT INTO matches (id, block_id, rotation, game, seed, adjudicated, replay, started, finished)
			SELECT 2 * b - 1 + rot, b, rot, '%[1]s', b, false, '', to_timestamp(1700000000 + b + rot * 0.5), to_timestamp(1700000000 + b + rot * 0.5 + 0.4) FROM %[5]s;
		INSERT INTO match_seats (match_id, seat, bot_id, place, score, ending)
			SELECT 2 * b - 1 + rot, seat, CASE WHEN seat = rot THEN %[3]s ELSE %[4]s END,
				CASE %[6]s WHEN 2 THEN 0 WHEN 1 THEN (seat <> rot)::int ELSE (seat = rot)::int END,
				10 - seat, CASE WHEN b %% 97 = 0 AND rot = 1 AND seat = 1 THEN 'crash' ELSE 'ok' END
			FROM %[5]s, generate_series(0, 1) seat;
		SELECT setval(pg_get_serial_sequence('blocks', 'id'), %[2]d);
		SELECT setval(pg_get_serial_sequence('matches', 'id'), %[7]d);
		ANALYZE blocks, block_bots, matches, match_seats;`, Game, blocks, a, c, gen, aAhead, 2*blocks)
}
