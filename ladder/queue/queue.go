// Package queue spreads a PostgreSQL ladder's blocks over machines through River
// (github.com/riverqueue/river, over pgx), a work queue kept in the ladder's own
// database: a coordinator (Coordinator, in `arena ladder serve`) chooses the tables and
// enqueues one job per block; workers (Worker, `arena worker`) on any machine play the
// jobs' blocks and record their games. River hands the jobs out. The job of a worker
// that died goes back to the queue once the worker's heartbeat (store.KeepAlive) has
// been silent for store.RescueAfter: the coordinator hands back the jobs its River
// client runs (jobtable.Rescue). River's own rescue, once a job's lease
// (RescueStuckJobsAfter, per block) has run out, remains for the rest (a worker killed
// before it registered).
//
// Jobs are of kind "arena_block" in the River queue "blocks" (BlockArgs). A job carries
// one block's ID or several (played in order, each with its own time limit and
// record), their game (the ladder's variant) and the Version of the arena that chose
// them. A worker of another version does not play it: it snoozes the job for a
// minute (a snooze costs no attempt), so that a worker of the right version takes it;
// games are played only by the engines and protocol the block was scheduled for.
//
// Recording is fenced: a block's games are written in one transaction that first checks
// that the job's River row is still running in this attempt
// (store.Postgres.RecordMatchesFenced); a job's next attempt skips the blocks and
// rotations recorded. A worker frozen past its lease, or silent past
// store.RescueAfter, whose job went to someone else records nothing. River itself does not fence the job's completion by
// attempt: such a worker's late answer (an error) puts the job back in the queue, and
// the next attempt plays whatever rotations are still missing, so nothing is lost and,
// with the unique (block, rotation) key, nothing is recorded twice.
//
// The queue is read through River's client API (JobList, JobCancel); what needs SQL
// on River's job table (the fence's row lock, the fleet's counts, the rescue of a
// silent worker's jobs, which River's API does not offer for a running job) is in
// package jobtable, whose tests hold it to River's schema.
package queue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/internal/logging"
	"github.com/arena-games/arena/ladder/queue/jobtable"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// Kind is the River job kind of a block (the store counts these jobs for the fleet's
// figures, so the name is the store's); Queue is the River queue of blocks.
const (
	Kind  = store.BlockJobKind
	Queue = "blocks"
)

// MaxAttempts is how often a block's job is tried before River discards it. Workers
// killed mid-block count as attempts; snoozes by workers of another version do not.
// A discarded block stays open and is not enqueued again (see Coordinator).
const MaxAttempts = 100

// BlockArgs are a block job's arguments.
type BlockArgs struct {
	// Block is the job's first block's ID in the ladder's store; at most one live job
	// per block.
	Block int64 `json:"block" river:"unique"`
	// More are the job's further blocks, played in order after Block: one fetch, one
	// read and one completion serve them all (CoordinatorConfig.PerJob).
	More []int64 `json:"more,omitempty"`
	// Game is the ladder's game (an engine.Variant).
	Game string `json:"game"`
	// Version is the arena Version the block must be played with.
	Version string `json:"version"`
}

// Kind is "arena_block".
func (BlockArgs) Kind() string { return Kind }

// Blocks are the job's blocks in the order they are played.
func (a BlockArgs) Blocks() []int64 { return append([]int64{a.Block}, a.More...) }

// jobArgs is the job of blocks ids (at least one), for this version.
func jobArgs(game string, ids []int64) BlockArgs {
	return BlockArgs{Block: ids[0], More: ids[1:len(ids):len(ids)], Game: game, Version: Version()}
}

// InsertOpts puts a block's job in the blocks queue, unique by block.
func (BlockArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: MaxAttempts,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: jobtable.Live}}
}

var version = sync.OnceValue(func() string {
	if v := metrics.Version(); v != "" {
		return fmt.Sprintf("protocol %d, arena %s", protocol.ProtocolVersion, v)
	}
	// No release version: the build itself. Go builds are reproducible, so the
	// same source and toolchain give the same digest on every machine, and any
	// change of engine or protocol code gives another.
	sum := "unknown"
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				sum = hex.EncodeToString(h.Sum(nil))[:16]
			}
			f.Close()
		}
	}
	return fmt.Sprintf("protocol %d, build %s", protocol.ProtocolVersion, sum)
})

// Version names the engines and protocol this program plays: the protocol version and
// the release version (metrics.Version(), set at link time), or without one the SHA-256
// of the program's executable. Only a worker of the same Version plays a job.
func Version() string { return version() }

// Connect opens a pool of connections to the ladder database at url (its search_path
// names the ladder's schema, as for the store) and brings River's own tables up to
// date there, under the same advisory lock as the ladder's migrations.
func Connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	return connect(ctx, url, 0)
}

// ConnectWorker is Connect for a worker's River client, whose start (its listener,
// its leader election, its producer's first fetch, its completer) takes
// WorkerConns connections at once: the pool opens them side by side in the background
// as it is made (store.WarmPool), while River's tables are checked, rather than
// River dialling each in turn as it starts.
func ConnectWorker(ctx context.Context, url string) (*pgxpool.Pool, error) {
	return connect(ctx, url, WorkerConns)
}

// WorkerConns is how many connections a worker's River client uses at once as it
// starts (above).
const WorkerConns = 4

func connect(ctx context.Context, url string, warm int) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("not a valid PostgreSQL URL")
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	store.WarmPool(cfg, warm)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("the work queue's tables: %w", err)
	}
	return pool, nil
}

// migrationLock is the advisory lock the store migrates under (store.migrationLock).
const migrationLock = 0x6172656e61

// migrate applies River's migrations one per transaction (a later one uses an enum
// value an earlier one adds, which PostgreSQL allows only once that is committed).
// Tables already up to date, as every worker but a ladder's first finds them, take one
// read and no lock (upToDate): checking each version under the lock took a
// transaction per version, four round trips each, on every worker's start.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return err
	}
	all := m.AllVersions()
	if upToDate(ctx, pool, m, all[len(all)-1].Version) {
		return nil
	}
	for _, v := range all {
		if err := migrateTo(ctx, pool, m, v.Version); err != nil {
			return err
		}
	}
	return nil
}

// upToDate reports whether River's tables have version latest, read without the lock.
// When they do not, the connection that looked is closed, not returned to the pool: it
// remembers that River's tables were missing (the server caches a name it did not
// find), and until its next transaction starts it would not see them created by
// another process under the lock (migrateTo's transaction starts before it waits for
// the lock), and would try to create them again.
func upToDate(ctx context.Context, pool *pgxpool.Pool, m *rivermigrate.Migrator[pgx.Tx], latest int) bool {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return false
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		conn.Release()
		return false
	}
	have, err := m.ExistingVersionsTx(ctx, tx)
	_ = tx.Rollback(ctx)
	if err == nil && hasVersion(have, latest) {
		conn.Release()
		return true
	}
	_ = conn.Hijack().Close(ctx)
	return false
}

// hasVersion reports whether version is among those applied (River applies them in
// order, so the latest one means every one before it).
func hasVersion(have []rivermigrate.Migration, version int) bool {
	for _, h := range have {
		if h.Version >= version {
			return true
		}
	}
	return false
}

func migrateTo(ctx context.Context, pool *pgxpool.Pool, m *rivermigrate.Migrator[pgx.Tx], version int) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return err
	}
	have, err := m.ExistingVersionsTx(ctx, tx)
	if err != nil {
		return err
	}
	if hasVersion(have, version) {
		return nil
	}
	// MigrateTx is deprecated because several versions in one transaction can
	// fail; this applies one version per transaction, under the ladder's lock.
	//lint:ignore SA1019 one version per transaction, see above
	if _, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{TargetVersion: version}); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// retryPolicy retries a failed or rescued block soon: a second per attempt, at most
// half a minute (River's default waits attempt⁴ seconds, hours after a few kills).
type retryPolicy struct{}

func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(time.Duration(min(job.Attempt, 30)) * time.Second)
}

// logger is River's log, on the arena's logger (none when nil): its warnings and
// errors as they are, its housekeeping (client started, job counts) at debug.
func logger(l hclog.Logger) *slog.Logger {
	if l == nil {
		l = hclog.NewNullLogger()
	}
	return logging.Quieter(l.Named("river"))
}

// NewInserter is a River client that only enqueues (the coordinator's).
func NewInserter(pool *pgxpool.Pool, log hclog.Logger) (*river.Client[pgx.Tx], error) {
	return river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: logger(log), RetryPolicy: retryPolicy{}})
}
