package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"
)

// AllBlocks calls fn for every block, complete or not, oldest first, with its bots
// (Done is left empty).
func (s *SQLite) AllBlocks(ctx context.Context, fn func(Block) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT b.id, b.game, b.seed, b.rotations, b.created_ms, k.bot_id
		FROM blocks b JOIN block_bots k ON k.block_id = b.id ORDER BY b.id, k.position`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur Block
	for rows.Next() {
		var b Block
		var seed, created, bot int64
		if err := rows.Scan(&b.ID, &b.Game, &seed, &b.Rotations, &created, &bot); err != nil {
			return err
		}
		if b.ID != cur.ID {
			if cur.ID != 0 {
				if err := fn(cur); err != nil {
					return err
				}
			}
			b.Seed, b.Created = uint64(seed), fromMillis(created)
			cur = b
		}
		cur.Bots = append(cur.Bots, bot)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if cur.ID != 0 {
		return fn(cur)
	}
	return nil
}

// ImportSummary counts what Import moved.
type ImportSummary struct {
	Bots, Programs, Blocks, Games, Replays int
	// Authors counts the authors moved (with their token hashes, the names they own
	// and their submissions).
	Authors int
	// MissingReplays counts games whose replay file was gone: they are moved
	// without one.
	MissingReplays int
}

// importBatch is how many games go to the server in one COPY.
const importBatch = 2000

// Import moves the whole ladder of src into p, which must hold no bots yet: bots
// (with their IDs, versions, times and programs), blocks, games and their replays,
// suspensions, and the authors with the names they own and their submissions, in
// one transaction, so that a failed import leaves p as it was. IDs are kept, so the
// standings, and a replay's game ID, are the same before and after.
func (p *Postgres) Import(ctx context.Context, src *SQLite) (ImportSummary, error) {
	var sum ImportSummary
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return sum, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `LOCK TABLE bots, blocks, matches, authors IN EXCLUSIVE MODE`); err != nil {
		return sum, err
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM bots) + (SELECT COUNT(*) FROM blocks) + (SELECT COUNT(*) FROM authors)`).Scan(&n); err != nil {
		return sum, err
	}
	if n > 0 {
		return sum, fmt.Errorf("%s already holds a ladder; import only into an empty one", p.url)
	}
	steps := []func(context.Context, pgx.Tx, *SQLite, *ImportSummary) error{importBots, importBlocks, importGames, importSuspensions, importAuthors}
	for _, step := range steps {
		if err := step(ctx, tx, src, &sum); err != nil {
			return sum, err
		}
	}
	// New rows continue after the imported IDs.
	for _, t := range []string{"bots", "blocks", "matches", "authors", "submissions"} {
		if _, err := tx.Exec(ctx, fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%s', 'id'), COALESCE((SELECT MAX(id) FROM %s), 0) + 1, false)`, t, t)); err != nil {
			return sum, err
		}
	}
	return sum, tx.Commit(ctx)
}

func importBots(ctx context.Context, tx pgx.Tx, src *SQLite, sum *ImportSummary) error {
	bots, err := src.Bots(ctx, true)
	if err != nil {
		return err
	}
	var rows [][]any
	stored := map[string]bool{}
	for _, b := range bots {
		rows = append(rows, []any{b.ID, b.Name, b.Version, b.SHA256, b.Path, b.Builtin, b.Added, pgTime(b.Retired)})
		if b.Builtin != "" || stored[b.SHA256] {
			continue
		}
		content, err := os.ReadFile(filepath.Join(src.Dir(), b.Path))
		if err != nil {
			return fmt.Errorf("bot %s v%d: %w", b.Name, b.Version, err)
		}
		if got := SHA256Hex(content); got != b.SHA256 {
			return fmt.Errorf("bot %s v%d: its program has SHA-256 %.12s, not the %.12s it was added with", b.Name, b.Version, got, b.SHA256)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO programs (sha256, content, added) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, b.SHA256, content, b.Added); err != nil {
			return err
		}
		stored[b.SHA256] = true
	}
	sum.Bots, sum.Programs = len(bots), len(stored)
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"bots"}, []string{"id", "name", "version", "sha256", "path", "builtin", "added", "retired"}, pgx.CopyFromRows(rows))
	return err
}

func importBlocks(ctx context.Context, tx pgx.Tx, src *SQLite, sum *ImportSummary) error {
	var blocks, members [][]any
	err := src.AllBlocks(ctx, func(b Block) error {
		blocks = append(blocks, []any{b.ID, b.Game, int64(b.Seed), b.Rotations, b.Created})
		for i, bot := range b.Bots {
			members = append(members, []any{b.ID, i, bot})
		}
		return nil
	})
	if err != nil {
		return err
	}
	sum.Blocks = len(blocks)
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"blocks"}, []string{"id", "game", "seed", "rotations", "created"}, pgx.CopyFromRows(blocks)); err != nil {
		return err
	}
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"block_bots"}, []string{"block_id", "position", "bot_id"}, pgx.CopyFromRows(members))
	return err
}

// importGames copies the games in batches, each game with its seats and its replay.
func importGames(ctx context.Context, tx pgx.Tx, src *SQLite, sum *ImportSummary) error {
	var games, seats, replays [][]any
	flush := func() error {
		for _, c := range []struct {
			table string
			cols  []string
			rows  *[][]any
		}{
			{"matches", []string{"id", "block_id", "rotation", "game", "seed", "adjudicated", "replay", "started", "finished"}, &games},
			{"match_seats", []string{"match_id", "seat", "bot_id", "place", "score", "ending"}, &seats},
			{"replays", []string{"match_id", "gzip"}, &replays},
		} {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(*c.rows)); err != nil {
				return fmt.Errorf("copying %s: %w", c.table, err)
			}
			*c.rows = (*c.rows)[:0]
		}
		return nil
	}
	err := src.Matches(ctx, "", func(m Match) error {
		games = append(games, []any{m.ID, m.Block, m.Rotation, m.Game, int64(m.Seed), m.Adjudicated, m.Replay, pgTime(m.Started), pgTime(m.Finished)})
		for i, s := range m.Seats {
			seats = append(seats, []any{m.ID, i, s.Bot, s.Place, s.Score, s.Ending})
		}
		sum.Games++
		if err := importReplay(ctx, src, m, &replays, sum); err != nil {
			return err
		}
		if len(games) >= importBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

func importReplay(ctx context.Context, src *SQLite, m Match, replays *[][]any, sum *ImportSummary) error {
	if m.Replay == "" {
		return nil
	}
	data, err := src.Replay(ctx, m.ID)
	if errors.Is(err, ErrNotFound) {
		sum.MissingReplays++
		return nil
	}
	if err != nil {
		return fmt.Errorf("replay of game %d: %w", m.ID, err)
	}
	gz, err := compress(data)
	if err != nil {
		return err
	}
	*replays = append(*replays, []any{m.ID, gz})
	sum.Replays++
	return nil
}

func importSuspensions(ctx context.Context, tx pgx.Tx, src *SQLite, _ *ImportSummary) error {
	all, err := src.Suspensions(ctx)
	if err != nil {
		return err
	}
	for _, x := range all {
		if _, err := tx.Exec(ctx, `INSERT INTO suspensions (bot_id, reason, at, lifted, count_after) VALUES ($1, $2, $3, $4, $5)`,
			x.Bot, x.Reason, pgTime(x.At), pgTime(x.Lifted), x.CountAfter); err != nil {
			return err
		}
	}
	return nil
}

// importAuthors copies the authors (IDs and token hashes kept, so their tokens work
// after the move), the names they own, and their submissions, which still count
// towards the day's limit.
func importAuthors(ctx context.Context, tx pgx.Tx, src *SQLite, sum *ImportSummary) error {
	for _, c := range []struct {
		table, query string
		cols         []string
		times        []int // columns in milliseconds, NULL for none
	}{
		{"authors", `SELECT id, name, token_hash, created_ms, revoked_ms FROM authors ORDER BY id`,
			[]string{"id", "name", "token_hash", "created", "revoked"}, []int{3, 4}},
		{"bot_owners", `SELECT name, author_id FROM bot_owners ORDER BY name`, []string{"name", "author_id"}, nil},
		{"submissions", `SELECT id, author_id, at_ms FROM submissions ORDER BY id`, []string{"id", "author_id", "at"}, []int{2}},
	} {
		rows, err := sqliteRows(ctx, src, c.query, len(c.cols), c.times)
		if err != nil {
			return fmt.Errorf("reading %s: %w", c.table, err)
		}
		if c.table == "authors" {
			sum.Authors = len(rows)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("copying %s: %w", c.table, err)
		}
	}
	return nil
}

// sqliteRows reads a query's rows of n columns, turning the columns at times from
// milliseconds into times (nil for NULL).
func sqliteRows(ctx context.Context, src *SQLite, query string, n int, times []int) ([][]any, error) {
	rows, err := src.db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		row := make([]any, n)
		ptrs := make([]any, n)
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for _, i := range times {
			if ms, ok := row[i].(int64); ok {
				row[i] = fromMillis(ms)
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}
