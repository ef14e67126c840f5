package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the Store in a PostgreSQL database (through pgx), for a ladder fed by
// many machines. Bot programs and replays live in the database too (see Programs and
// Replays), so a machine needs nothing but the URL; Dir is a local cache of programs
// fetched from it and of replays written before they are stored.
type Postgres struct {
	pool *pgxpool.Pool
	url  string // without its password, for messages
	dir  string
	// lockPID is the server process of the connection holding the run lock, or 0.
	lockPID atomic.Uint32
}

var _ Store = (*Postgres)(nil)

// IsPostgresURL reports whether a --db argument names a PostgreSQL database rather
// than an SQLite file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenAny opens a PostgreSQL database for a postgres:// URL and an SQLite file for
// anything else. cacheDir is a PostgreSQL store's local directory ("" for the default,
// DefaultCacheDir).
func OpenAny(ctx context.Context, db, cacheDir string) (Store, error) {
	if !IsPostgresURL(db) {
		return Open(db)
	}
	if cacheDir == "" {
		d, err := DefaultCacheDir(db)
		if err != nil {
			return nil, err
		}
		cacheDir = d
	}
	return OpenPostgres(ctx, db, cacheDir)
}

// DefaultCacheDir is the local directory of a PostgreSQL ladder on this machine:
// $XDG_CACHE_HOME/arena/pg-HASH, else ~/.cache/arena/pg-HASH, where HASH names the
// database (host, port, database, user and parameters such as search_path; not the
// password), so two ladders never share replay directories.
func DefaultCacheDir(dbURL string) (string, error) {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", errors.New("no home directory for the ladder's local cache")
		}
		base = filepath.Join(home, ".cache")
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", errors.New("not a valid PostgreSQL URL")
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	sum := sha256.Sum256([]byte(u.String()))
	return filepath.Join(base, "arena", "pg-"+hex.EncodeToString(sum[:6])), nil
}

// redact drops the password and the parameters of a database URL.
func redact(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	u.RawQuery, u.Fragment = "", ""
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	return u.String()
}

// OpenPostgres connects to the database at dbURL and brings its schema up to date. A
// database that holds other tables and no ladder's, or a schema newer than this
// program knows, gives an error and is left as it was. dir is the local cache.
func OpenPostgres(ctx context.Context, dbURL, dir string) (*Postgres, error) {
	return openPostgresAt(ctx, dbURL, dir, len(pgMigrations), 0)
}

// OpenPostgresWarm is OpenPostgres for a process that sends up to conns statements at
// once from its first moment (a worker: a block read for each job its first fetch
// takes): its pool opens that many connections side by side in the background as it
// opens (pgxpool's MinConns, unless the URL sets pool_min_conns; at most the pool's
// MaxConns) and keeps them, rather than dialling one when each statement first comes.
// A worker's first block reads took 88-105 ms that way at a load of 10-20, where a
// read takes 1-2 ms (docs/performance.md, "A worker's slots at -j 2").
func OpenPostgresWarm(ctx context.Context, dbURL, dir string, conns int) (*Postgres, error) {
	return openPostgresAt(ctx, dbURL, dir, len(pgMigrations), conns)
}

// WarmPool sets cfg's MinConns to conns (at most its MaxConns) unless the URL set it
// (pool_min_conns): a pool made from cfg then opens them at once, in the background.
func WarmPool(cfg *pgxpool.Config, conns int) {
	if cfg.MinConns == 0 && conns > 0 {
		cfg.MinConns = min(int32(conns), cfg.MaxConns)
	}
}

// openPostgresAt opens the database migrated up to version target (tests use an
// older one to stand for what an older arena left).
func openPostgresAt(ctx context.Context, dbURL, dir string, target, conns int) (*Postgres, error) {
	name := redact(dbURL)
	fail := func(err error) (*Postgres, error) {
		return nil, fmt.Errorf("ladder database %s: %s", name, oneLine(err))
	}
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return fail(errors.New("not a valid PostgreSQL URL"))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	WarmPool(cfg, conns)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fail(err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return fail(err)
	}
	p := &Postgres{pool: pool, url: name, dir: dir}
	if err := p.migrate(ctx, target); err != nil {
		pool.Close()
		return fail(err)
	}
	if err := tightenCache(dir); err != nil {
		pool.Close()
		return fail(err)
	}
	return p, nil
}

// oneLine keeps an error to one line: a server's detail can span several.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Dir is the local cache: fetched bot programs and replays not yet stored.
func (p *Postgres) Dir() string { return p.dir }

// Path is the database's URL without its password.
func (p *Postgres) Path() string { return p.url }

// PoolStat is the use of the store's connection pool now (for the metrics).
func (p *Postgres) PoolStat() *pgxpool.Stat { return p.pool.Stat() }

// Close closes the connections.
func (p *Postgres) Close() error { p.pool.Close(); return nil }

// pgMigrations[i] brings the schema from version i to i+1; only ever appended to.
// Times are timestamptz at millisecond precision (as the SQLite store keeps them),
// NULL for none; seeds are unsigned 64-bit numbers in a bigint's two's complement.
var pgMigrations = []string{
	// 1: bots. A name has versions; at most one is active.
	`CREATE TABLE bots (
		id      bigserial PRIMARY KEY,
		name    text        NOT NULL,
		version integer     NOT NULL,
		sha256  text        NOT NULL,
		path    text        NOT NULL,
		builtin text        NOT NULL,
		added   timestamptz NOT NULL,
		retired timestamptz,
		UNIQUE (name, version)
	);
	CREATE UNIQUE INDEX bots_one_active ON bots (name) WHERE retired IS NULL;`,

	// 2: blocks and the games recorded in them, one row per seat.
	`CREATE TABLE blocks (
		id        bigserial PRIMARY KEY,
		game      text        NOT NULL,
		seed      bigint      NOT NULL,
		rotations integer     NOT NULL CHECK (rotations > 0),
		created   timestamptz NOT NULL
	);
	CREATE TABLE block_bots (
		block_id bigint  NOT NULL REFERENCES blocks (id),
		position integer NOT NULL,
		bot_id   bigint  NOT NULL REFERENCES bots (id),
		PRIMARY KEY (block_id, position)
	);
	CREATE TABLE matches (
		id          bigserial PRIMARY KEY,
		block_id    bigint      NOT NULL REFERENCES blocks (id),
		rotation    integer     NOT NULL,
		game        text        NOT NULL,
		seed        bigint      NOT NULL,
		adjudicated boolean     NOT NULL,
		replay      text        NOT NULL,
		started     timestamptz,
		finished    timestamptz,
		UNIQUE (block_id, rotation)
	);
	CREATE INDEX matches_game ON matches (game, id);
	CREATE TABLE match_seats (
		match_id bigint  NOT NULL REFERENCES matches (id),
		seat     integer NOT NULL,
		bot_id   bigint  NOT NULL REFERENCES bots (id),
		place    integer NOT NULL,
		score    integer NOT NULL,
		ending   text    NOT NULL,
		PRIMARY KEY (match_id, seat)
	);
	CREATE INDEX match_seats_bot ON match_seats (bot_id);`,

	// 3: bot programs, content addressed, and replays, compressed, stored with their
	// game so that any machine can play any bot and show any replay.
	`CREATE TABLE programs (
		sha256  text        PRIMARY KEY,
		content bytea       NOT NULL,
		added   timestamptz NOT NULL
	);
	CREATE TABLE replays (
		match_id bigint PRIMARY KEY REFERENCES matches (id),
		gzip     bytea  NOT NULL
	);`,

	// 4: suspensions, as the SQLite store's migration 3. A bot past its share of
	// timeouts and crashes plays no more until reinstated; its share then counts only
	// games after count_after.
	`CREATE TABLE suspensions (
		bot_id      bigint      PRIMARY KEY REFERENCES bots (id),
		reason      text        NOT NULL,
		at          timestamptz NOT NULL,
		lifted      timestamptz,
		count_after bigint      NOT NULL DEFAULT 0
	);`,

	// 5: authors, as the SQLite store's migration 4: who owns which bot names and
	// when they submitted. A token is kept only as its SHA-256; the unique keys
	// decide racing adds and claims.
	`CREATE TABLE authors (
		id         bigserial   PRIMARY KEY,
		name       text        NOT NULL UNIQUE,
		token_hash text        NOT NULL UNIQUE,
		created    timestamptz NOT NULL,
		revoked    timestamptz
	);
	CREATE TABLE bot_owners (
		name      text   PRIMARY KEY,
		author_id bigint NOT NULL REFERENCES authors (id)
	);
	CREATE TABLE submissions (
		id        bigserial   PRIMARY KEY,
		author_id bigint      NOT NULL REFERENCES authors (id),
		at        timestamptz NOT NULL
	);
	CREATE INDEX submissions_author ON submissions (author_id, at);`,

	// 6: the workers that play the ladder's blocks from other machines, which worker
	// played each game (NULL for a game recorded by a local run or moved in from
	// SQLite) and when it was recorded (NULL for games older than this migration).
	// Times are the database's clock, so that machines whose clocks disagree are
	// judged alive, and their games counted, by one measure.
	`CREATE TABLE workers (
		id        bigserial   PRIMARY KEY,
		host      text        NOT NULL,
		pid       integer     NOT NULL,
		version   text        NOT NULL,
		engine    text        NOT NULL,
		sandbox   text[]      NOT NULL,
		slots     integer     NOT NULL CHECK (slots > 0),
		started   timestamptz NOT NULL,
		heartbeat timestamptz NOT NULL,
		stopped   timestamptz
	);
	ALTER TABLE matches ADD COLUMN worker_id bigint REFERENCES workers (id);
	ALTER TABLE matches ADD COLUMN recorded timestamptz;
	ALTER TABLE matches ALTER COLUMN recorded SET DEFAULT now();
	CREATE INDEX matches_worker_recorded ON matches (worker_id, recorded) WHERE worker_id IS NOT NULL;`,

	// 7: the authors' browser sessions, as the SQLite store's migration 5.
	`CREATE TABLE sessions (
		id_hash   text        PRIMARY KEY,
		author_id bigint      NOT NULL REFERENCES authors (id),
		expires   timestamptz NOT NULL
	);
	CREATE INDEX sessions_author ON sessions (author_id);`,

	// 8: the work queue's client each worker takes its jobs with (River's client ID,
	// the queue's attempted_by), so that the coordinator hands the jobs of a worker
	// gone silent back to the queue (NULL for workers registered before).
	`ALTER TABLE workers ADD COLUMN queue_client text;
	CREATE INDEX workers_heartbeat ON workers (heartbeat) WHERE queue_client IS NOT NULL;`,
}

// migrationLock is the advisory lock under which a migration runs, so that two
// programs opening one new database do not both migrate it.
const migrationLock = 0x6172656e61 // "arena"

func (p *Postgres) migrate(ctx context.Context, target int) error {
	for {
		done, err := p.migrateOne(ctx, target)
		if err != nil || done {
			return err
		}
	}
}

func (p *Postgres) migrateOne(ctx context.Context, target int) (done bool, err error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return false, err
	}
	v, err := pgSchemaVersion(ctx, tx)
	if err != nil {
		return false, err
	}
	switch {
	case v > len(pgMigrations):
		return false, fmt.Errorf("its schema version %d is newer than this arena knows (%d); use a newer arena", v, len(pgMigrations))
	case v >= target:
		return true, nil
	}
	if v == 0 {
		if _, err := tx.Exec(ctx, `CREATE TABLE schema_version (version integer NOT NULL); INSERT INTO schema_version VALUES (0)`); err != nil {
			return false, err
		}
	}
	if _, err := tx.Exec(ctx, pgMigrations[v]); err != nil {
		return false, fmt.Errorf("migration %d: %w", v+1, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE schema_version SET version = $1`, v+1); err != nil {
		return false, err
	}
	return false, tx.Commit(ctx)
}

// pgSchemaVersion is 0 for a database without tables in its current schema. Tables
// and no schema_version mean the database belongs to something else. River's tables
// (river_*) may share the database and do not count.
func pgSchemaVersion(ctx context.Context, tx pgx.Tx) (int, error) {
	rows, err := tx.Query(ctx, `SELECT table_name::text FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name NOT LIKE 'river\_%' ORDER BY table_name`)
	if err != nil {
		return 0, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, err
	}
	if len(tables) == 0 {
		return 0, nil
	}
	found := false
	for _, t := range tables {
		found = found || t == "schema_version"
	}
	if !found {
		return 0, fmt.Errorf("the database is not a ladder's (tables %s, no schema_version); it was left untouched", strings.Join(tables, ", "))
	}
	var v int
	if err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading its schema version: %w", err)
	}
	return v, nil
}

// pgTime is a time for a timestamptz column: NULL for zero, else at the millisecond
// precision both stores keep.
func pgTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Truncate(time.Millisecond)
}

func fromPg(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// pgCode is the SQLSTATE of a server error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

// AddBot adds the next version of b.Name and retires the older ones. A submitted
// program must already be in the database (PutProgram).
func (p *Postgres) AddBot(ctx context.Context, b Bot) (Bot, error) {
	if b.Name == "" {
		return Bot{}, errors.New("a bot needs a name")
	}
	if b.SHA256 == "" {
		return Bot{}, errors.New("a bot needs a digest")
	}
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return Bot{}, err
	}
	defer tx.Rollback(ctx)
	// Versions are numbered one after another: adds of bots queue here.
	if _, err := tx.Exec(ctx, `LOCK TABLE bots IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return Bot{}, err
	}
	if b.Builtin == "" {
		var ok bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM programs WHERE sha256 = $1)`, b.SHA256).Scan(&ok); err != nil {
			return Bot{}, err
		}
		if !ok {
			return Bot{}, fmt.Errorf("%w: no program with SHA-256 %.12s in the database", ErrNotFound, b.SHA256)
		}
	}
	var last int
	var sha string
	var retired bool
	err = tx.QueryRow(ctx, `SELECT version, sha256, retired IS NOT NULL FROM bots WHERE name = $1 ORDER BY version DESC LIMIT 1`, b.Name).
		Scan(&last, &sha, &retired)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return Bot{}, err
	case sha == b.SHA256 && retired:
		return Bot{}, fmt.Errorf("%w: bot %s v%d is this program, retired; bring it back with `arena bot reactivate %s`", ErrDuplicate, b.Name, last, b.Name)
	case sha == b.SHA256:
		return Bot{}, fmt.Errorf("%w: bot %s v%d is this program (sha256 %.12s)", ErrDuplicate, b.Name, last, sha)
	}
	if err := pgSameProgramElsewhere(ctx, tx, b); err != nil {
		return Bot{}, err
	}
	now := time.Now().Truncate(time.Millisecond)
	if _, err := tx.Exec(ctx, `UPDATE bots SET retired = $1 WHERE name = $2 AND retired IS NULL`, now, b.Name); err != nil {
		return Bot{}, err
	}
	b.Version, b.Added, b.Retired = last+1, now.UTC(), time.Time{}
	err = tx.QueryRow(ctx, `INSERT INTO bots (name, version, sha256, path, builtin, added) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		b.Name, b.Version, b.SHA256, b.Path, b.Builtin, now).Scan(&b.ID)
	if err != nil {
		return Bot{}, err
	}
	return b, tx.Commit(ctx)
}

// Bots lists the versions, oldest first.
func (p *Postgres) Bots(ctx context.Context, all bool) ([]Bot, error) {
	q := `SELECT id, name, version, sha256, path, builtin, added, retired FROM bots`
	if !all {
		q += ` WHERE retired IS NULL`
	}
	rows, err := p.pool.Query(ctx, q+` ORDER BY id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanBot)
}

func scanBot(row pgx.CollectableRow) (Bot, error) {
	var b Bot
	var added time.Time
	var retired *time.Time
	err := row.Scan(&b.ID, &b.Name, &b.Version, &b.SHA256, &b.Path, &b.Builtin, &added, &retired)
	b.Added, b.Retired = added.UTC(), fromPg(retired)
	return b, err
}

// RetireBot retires the active version of name.
func (p *Postgres) RetireBot(ctx context.Context, name string) (Bot, error) {
	now := time.Now().Truncate(time.Millisecond)
	rows, err := p.pool.Query(ctx, `UPDATE bots SET retired = $1 WHERE name = $2 AND retired IS NULL
		RETURNING id, name, version, sha256, path, builtin, added, retired`, now, name)
	if err != nil {
		return Bot{}, err
	}
	b, err := pgx.CollectExactlyOneRow(rows, scanBot)
	if errors.Is(err, pgx.ErrNoRows) {
		return Bot{}, fmt.Errorf("%w: no active bot named %q", ErrNotFound, name)
	}
	return b, err
}

// NewBlock records a block about to be played.
func (p *Postgres) NewBlock(ctx context.Context, b Block) (Block, error) {
	return p.NewBlockThen(ctx, b, nil)
}

// NewBlockThen records b as NewBlock does and, when then is set, calls it with the
// recorded block inside the same transaction: the block and what then writes (its job
// in the work queue) are committed together or not at all, so a coordinator killed in
// between leaves neither.
func (p *Postgres) NewBlockThen(ctx context.Context, b Block, then func(context.Context, pgx.Tx, Block) error) (Block, error) {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return Block{}, err
	}
	defer tx.Rollback(ctx)
	if b, err = NewBlockTx(ctx, tx, b); err != nil {
		return Block{}, err
	}
	if then != nil {
		if err := then(ctx, tx, b); err != nil {
			return Block{}, err
		}
	}
	return b, tx.Commit(ctx)
}

// NewBlockTx records b as NewBlock does, in the transaction tx (a coordinator records
// the blocks of a refill together, each with its job).
func NewBlockTx(ctx context.Context, tx pgx.Tx, b Block) (Block, error) {
	now, positions, err := newBlock(b)
	if err != nil {
		return Block{}, err
	}
	// The block and its bots in one statement: a coordinator records a block for
	// every one a worker plays, and a statement per bot was a round trip each.
	if err := tx.QueryRow(ctx, insertBlock, b.Game, int64(b.Seed), b.Rotations, now, positions, b.Bots).Scan(&b.ID); err != nil {
		return Block{}, fmt.Errorf("block of bots %v: %w", b.Bots, err)
	}
	b.Created, b.Done = now.UTC(), nil
	return b, nil
}

// newBlock checks b and gives its creation time and its bots' positions.
func newBlock(b Block) (time.Time, []int32, error) {
	if b.Rotations < 1 || len(b.Bots) < 1 {
		return time.Time{}, nil, fmt.Errorf("a block needs bots and rotations, got %d bots and %d rotations", len(b.Bots), b.Rotations)
	}
	positions := make([]int32, len(b.Bots))
	for i := range positions {
		positions[i] = int32(i)
	}
	return time.Now().Truncate(time.Millisecond), positions, nil
}

// ReserveBlockIDs takes n IDs from the blocks' sequence in tx, for blocks queued with
// QueueNewBlock: a coordinator's refill then sends its blocks in one round trip rather
// than one a block. An ID reserved and not used is a gap, as a rolled-back insert's.
func ReserveBlockIDs(ctx context.Context, tx pgx.Tx, n int) ([]int64, error) {
	rows, err := tx.Query(ctx, `SELECT nextval(pg_get_serial_sequence('blocks', 'id')) FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// QueueNewBlock queues the insert of block b, under its ID reserved by ReserveBlockIDs,
// in batch, and returns b as it is recorded once the batch is sent in a transaction
// that commits (the batch's results say whether the insert failed).
func QueueNewBlock(batch *pgx.Batch, b Block) (Block, error) {
	now, positions, err := newBlock(b)
	if err != nil {
		return Block{}, err
	}
	if b.ID == 0 {
		return Block{}, errors.New("a block queued in a batch needs its reserved ID")
	}
	batch.Queue(insertBlockAs, b.ID, b.Game, int64(b.Seed), b.Rotations, now, positions, b.Bots)
	b.Created, b.Done = now.UTC(), nil
	return b, nil
}

// insertBlockAs is insertBlock under a reserved ID ($1).
const insertBlockAs = `WITH b AS (
		INSERT INTO blocks (id, game, seed, rotations, created) VALUES ($1, $2, $3, $4, $5) RETURNING id)
	INSERT INTO block_bots (block_id, position, bot_id)
		SELECT b.id, t.position, t.bot FROM b, unnest($6::integer[], $7::bigint[]) AS t (position, bot)`

// insertBlock writes a block and its bots ($5 their positions, $6 their IDs), and
// returns its ID.
const insertBlock = `WITH b AS (
		INSERT INTO blocks (game, seed, rotations, created) VALUES ($1, $2, $3, $4) RETURNING id),
	s AS (
		INSERT INTO block_bots (block_id, position, bot_id)
		SELECT b.id, t.position, t.bot FROM b, unnest($5::integer[], $6::bigint[]) AS t (position, bot))
	SELECT id FROM b`

// OpenBlocks lists the blocks of game still missing rotations, with the bots and the
// rotations recorded of each.
func (p *Postgres) OpenBlocks(ctx context.Context, game string) ([]Block, error) {
	return p.blocks(ctx, `b.game = $1 AND b.rotations > (SELECT COUNT(*) FROM matches m WHERE m.block_id = b.id)`, game)
}

// OpenBlocksAmong is OpenBlocks of the blocks among ids and those from the ID from
// on: a reader that knows which blocks were open (and that a complete block stays
// complete) lists them without counting the games of every block ever played.
func (p *Postgres) OpenBlocksAmong(ctx context.Context, game string, ids []int64, from int64) ([]Block, error) {
	return p.blocks(ctx, `b.game = $1 AND (b.id >= $2 OR b.id = ANY ($3))
		AND b.rotations > (SELECT COUNT(*) FROM matches m WHERE m.block_id = b.id)`, game, from, ids)
}

// blocks lists the blocks that meet where (over blocks b), oldest first, with their
// bots and recorded rotations.
func (p *Postgres) blocks(ctx context.Context, where string, args ...any) ([]Block, error) {
	rows, err := p.pool.Query(ctx, blocksQuery+where+` ORDER BY b.id`, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanBlock)
}

const blocksQuery = `
		SELECT b.id, b.game, b.seed, b.rotations, b.created,
			ARRAY(SELECT bot_id FROM block_bots WHERE block_id = b.id ORDER BY position),
			ARRAY(SELECT rotation FROM matches WHERE block_id = b.id ORDER BY rotation)
		FROM blocks b
		WHERE `

func scanBlock(row pgx.CollectableRow) (Block, error) {
	var b Block
	var seed int64
	var done []int32
	err := row.Scan(&b.ID, &b.Game, &seed, &b.Rotations, &b.Created, &b.Bots, &done)
	b.Seed, b.Created = uint64(seed), b.Created.UTC()
	for _, r := range done {
		b.Done = append(b.Done, int(r))
	}
	return b, err
}

// BlockToPlay is Block with its bots (retired or not) and their suspensions, read in
// one round trip (BlocksToPlay).
func (p *Postgres) BlockToPlay(ctx context.Context, id int64) (Block, []Bot, []Suspension, error) {
	blocks, bots, sus, err := p.BlocksToPlay(ctx, []int64{id})
	if err != nil {
		return Block{}, nil, nil, err
	}
	if len(blocks) == 0 {
		return Block{}, nil, nil, fmt.Errorf("%w: block %d", ErrNotFound, id)
	}
	return blocks[0], bots, sus, nil
}

// BlocksToPlay reads the blocks of ids that exist (in ID order) with their bots
// (retired or not) and those bots' suspensions, in one round trip: a worker reads them
// for every job it plays, and reading every bot and every suspension of the ladder,
// in three round trips, cost it more as the ladder grew.
func (p *Postgres) BlocksToPlay(ctx context.Context, ids []int64) ([]Block, []Bot, []Suspension, error) {
	var blocks []Block
	var bots []Bot
	var sus []Suspension
	b := &pgx.Batch{}
	b.Queue(blocksQuery+`b.id = ANY ($1) ORDER BY b.id`, ids).Query(func(rows pgx.Rows) (err error) {
		blocks, err = pgx.CollectRows(rows, scanBlock)
		return err
	})
	b.Queue(`SELECT id, name, version, sha256, path, builtin, added, retired FROM bots
		WHERE id IN (SELECT bot_id FROM block_bots WHERE block_id = ANY ($1)) ORDER BY id`, ids).Query(func(rows pgx.Rows) (err error) {
		bots, err = pgx.CollectRows(rows, scanBot)
		return err
	})
	b.Queue(suspensionsQuery+` WHERE bot_id IN (SELECT bot_id FROM block_bots WHERE block_id = ANY ($1)) ORDER BY bot_id`, ids).Query(func(rows pgx.Rows) (err error) {
		sus, err = pgx.CollectRows(rows, scanSuspension)
		return err
	})
	if err := p.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, nil, err
	}
	return blocks, bots, sus, nil
}

// RecordMatch writes one game, its seats and its replay (Match.ReplayData) in one
// transaction.
func (p *Postgres) RecordMatch(ctx context.Context, m Match) (Match, error) {
	return p.recordMatch(ctx, m, nil)
}

// asynchronousGames lets a game's commit return before the server has flushed its
// write-ahead log (about 1-2 ms per game, on the path of a block's last game). A
// worker or coordinator killed at any moment loses nothing: the server has the
// commit. A crash of the server itself can take back the games of its last fraction of
// a second (wal_writer_delay, 200 ms by default): the log is written in order, so
// what is lost is never older than what stays, and the job of a block, completed by
// River with a synchronous commit after the block's games, is lost with them and
// played again (its rotations are then missing, and the replays go with their games,
// in the same transaction).
const asynchronousGames = `SET LOCAL synchronous_commit = off`

// recordMatch is RecordMatch with a check queued first inside the transaction (a
// fence), whose error, if any, is returned and nothing written.
func (p *Postgres) recordMatch(ctx context.Context, m Match, check func(*pgx.Batch) func() error) (Match, error) {
	if len(m.Seats) == 0 {
		return Match{}, errors.New("a game needs seats")
	}
	ms := []Match{m}
	err := p.writeGames(ctx, ms, check)
	var missing notWritten
	switch {
	case pgCode(err) == uniqueViolation:
		// A racing writer may have committed it after our check could have run:
		// the unique key is the judge.
		return Match{}, p.duplicate(ctx, m)
	case pgCode(err) == foreignKeyViolation && m.Worker != 0:
		return Match{}, fmt.Errorf("%w: worker %d", ErrNotFound, m.Worker)
	case errors.As(err, &missing):
		return Match{}, p.notInBlock(ctx, m)
	case err != nil:
		return Match{}, err
	}
	return ms[0], nil
}

// notWritten is writeGames' error for a game insertGame did not write (its block is
// missing or has no such rotation).
type notWritten struct{ game int }

func (e notWritten) Error() string { return fmt.Sprintf("game %d of the batch not written", e.game) }

// writeGames writes ms (setting their IDs) in one transaction, after a check queued
// first inside it (a fence) whose error, if any, is returned and nothing written. The
// transaction is one round trip to the server however many games it holds: one batch
// that begins it, holds every statement and commits it (a failed statement aborts the
// transaction and skips the commit; a rollback then follows). Under load each round
// trip waits for the server's process to be scheduled, and wakes it beside the games
// on the worker's cores: a begin and a commit of their own were two more. Its
// connection is back in the pool when it returns, so that a caller asking why it
// failed cannot exhaust the pool.
func (p *Postgres) writeGames(ctx context.Context, ms []Match, check func(*pgx.Batch) func() error) error {
	gz := make([][]byte, len(ms))
	for i, m := range ms {
		var err error
		if gz[i], err = compress(m.ReplayData); err != nil {
			return err
		}
	}
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A connection left inside the transaction (its rollback failed) is closed, not
	// pooled (pgxpool checks its state on release).
	defer conn.Release()
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	// The commit returns without waiting for the server to flush its log
	// (asynchronousGames says why that loses nothing a worker relies on).
	b.Queue(asynchronousGames)
	checked := func() error { return nil }
	if check != nil {
		checked = check(b)
	}
	missing := make([]bool, len(ms))
	blocks, rotations := make([]int64, len(ms)), make([]int32, len(ms))
	for i := range ms {
		blocks[i], rotations[i] = ms[i].Block, int32(ms[i].Rotation)
		b.Queue(insertGame, gameArgs(ms[i], gz[i])...).QueryRow(func(row pgx.Row) error {
			err := row.Scan(&ms[i].ID)
			if errors.Is(err, pgx.ErrNoRows) {
				missing[i] = true
				return nil // no block, or a rotation out of its range: told below
			}
			return err
		})
	}
	b.Queue(allWritten, blocks, rotations, len(ms))
	b.Queue(`COMMIT`).Exec(func(tag pgconn.CommandTag) error {
		if tag.String() != "COMMIT" {
			return fmt.Errorf("the games' transaction was rolled back (%s)", tag)
		}
		return nil
	})
	if err := batchVerdict(conn.SendBatch(ctx, b).Close(), checked, missing); err != nil {
		_, _ = conn.Exec(ctx, `ROLLBACK`)
		return err
	}
	for i := range ms {
		ms[i].Started, ms[i].Finished = ms[i].Started.Truncate(time.Millisecond), ms[i].Finished.Truncate(time.Millisecond)
	}
	return nil
}

// batchVerdict is why writeGames' batch did not commit, or nil when it did: its
// check's verdict, a game not inserted (notWritten; allWritten then failed), or the
// batch's error (sent).
func batchVerdict(sent error, checked func() error, missing []bool) error {
	if err := checked(); err != nil {
		return err
	}
	for i, m := range missing {
		if m {
			return notWritten{i}
		}
	}
	return sent
}

// allWritten fails (and so aborts the transaction before its commit) unless every
// game of the batch, by block and rotation, is in matches: one that insertGame did not
// write (no such block or rotation) is not, and one recorded before failed its insert
// on the unique key.
const allWritten = `SELECT 1 / (COUNT(*) = $3)::integer FROM matches
	WHERE (block_id, rotation) IN (SELECT * FROM unnest($1::bigint[], $2::integer[]))`

// insertGame writes a game with its seats and its replay (when $15 is not null) in
// one statement, only when its block exists and has the rotation; it returns the
// game's ID, or no row.
const insertGame = `WITH m AS (
		INSERT INTO matches (block_id, rotation, game, seed, adjudicated, replay, started, finished, worker_id)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM blocks WHERE id = $1 AND $2 >= 0 AND $2 < rotations
		RETURNING id),
	s AS (
		INSERT INTO match_seats (match_id, seat, bot_id, place, score, ending)
		SELECT m.id, t.seat, t.bot, t.place, t.score, t.ending
		FROM m, unnest($10::integer[], $11::bigint[], $12::integer[], $13::integer[], $14::text[]) AS t (seat, bot, place, score, ending)),
	r AS (
		INSERT INTO replays (match_id, gzip) SELECT m.id, $15::bytea FROM m WHERE $15::bytea IS NOT NULL)
	SELECT id FROM m`

// gameArgs are insertGame's arguments for m, with its replay gz (nil for none).
func gameArgs(m Match, gz []byte) []any {
	n := len(m.Seats)
	seats, bots, places, scores, endings := make([]int32, n), make([]int64, n), make([]int32, n), make([]int32, n), make([]string, n)
	for i, st := range m.Seats {
		seats[i], bots[i], places[i], scores[i], endings[i] = int32(i), st.Bot, int32(st.Place), int32(st.Score), st.Ending
	}
	return []any{m.Block, m.Rotation, m.Game, int64(m.Seed), m.Adjudicated, m.Replay, pgTime(m.Started), pgTime(m.Finished), pgWorker(m.Worker),
		seats, bots, places, scores, endings, gz}
}

// notInBlock is the error of a game insertGame did not write: its block is missing,
// or has no such rotation.
func (p *Postgres) notInBlock(ctx context.Context, m Match) error {
	var rotations int
	err := p.pool.QueryRow(ctx, `SELECT rotations FROM blocks WHERE id = $1`, m.Block).Scan(&rotations)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("%w: block %d", ErrNotFound, m.Block)
	case err != nil:
		return err
	}
	return fmt.Errorf("rotation %d of block %d, which has rotations 0..%d", m.Rotation, m.Block, rotations-1)
}

func (p *Postgres) duplicate(ctx context.Context, m Match) error {
	var existing int64
	if err := p.pool.QueryRow(ctx, `SELECT id FROM matches WHERE block_id = $1 AND rotation = $2`, m.Block, m.Rotation).Scan(&existing); err != nil {
		return fmt.Errorf("%w: block %d rotation %d", ErrDuplicate, m.Block, m.Rotation)
	}
	return fmt.Errorf("%w: block %d rotation %d is game %d", ErrDuplicate, m.Block, m.Rotation, existing)
}

// Matches streams the recorded games of game in the order they were recorded.
func (p *Postgres) Matches(ctx context.Context, game string, fn func(Match) error) error {
	return p.MatchesAfter(ctx, game, 0, fn)
}

// MatchesAfter streams the recorded games of game with an ID above after, in ID order.
func (p *Postgres) MatchesAfter(ctx context.Context, game string, after int64, fn func(Match) error) error {
	where, args := ` WHERE m.id > $1`, []any{after}
	if game != "" {
		where += ` AND m.game = $2`
		args = append(args, game)
	}
	return p.matchesWhere(ctx, where, args, fn)
}

// Match returns the recorded game with that ID.
func (p *Postgres) Match(ctx context.Context, id int64) (Match, error) {
	var found Match
	err := p.matchesWhere(ctx, ` WHERE m.id = $1`, []any{id}, func(m Match) error { found = m; return nil })
	if err == nil && found.ID == 0 {
		err = fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	return found, err
}

func (p *Postgres) matchesWhere(ctx context.Context, where string, args []any, fn func(Match) error) error {
	q := `SELECT m.id, m.block_id, m.rotation, m.game, m.seed, m.adjudicated, m.replay, m.started, m.finished, COALESCE(m.worker_id, 0),
			s.bot_id, s.place, s.score, s.ending
		FROM matches m JOIN match_seats s ON s.match_id = m.id` + where
	rows, err := p.pool.Query(ctx, q+` ORDER BY m.id, s.seat`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur Match
	for rows.Next() {
		var id, block, seed, worker int64
		var rot int
		var g, replay string
		var adj bool
		var started, finished *time.Time
		var st Seat
		if err := rows.Scan(&id, &block, &rot, &g, &seed, &adj, &replay, &started, &finished, &worker, &st.Bot, &st.Place, &st.Score, &st.Ending); err != nil {
			return err
		}
		if id != cur.ID {
			if cur.ID != 0 {
				if err := fn(cur); err != nil {
					return err
				}
			}
			cur = Match{ID: id, Block: block, Rotation: rot, Game: g, Seed: uint64(seed), Adjudicated: adj, Replay: replay,
				Started: fromPg(started), Finished: fromPg(finished), Worker: worker}
		}
		cur.Seats = append(cur.Seats, st)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if cur.ID != 0 {
		return fn(cur)
	}
	return nil
}
