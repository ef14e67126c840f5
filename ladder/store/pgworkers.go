package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ WorkerRegistry = (*Postgres)(nil)

// pgNow is the database's clock at the precision the stores keep.
const pgNow = `date_trunc('milliseconds', now())`

// pgWorker is Match.Worker for the worker_id column: NULL for none.
func pgWorker(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// RegisterWorker adds a worker, started and heartbeating now by the database's clock,
// and marks the silent workers of its host stopped at their last heartbeat.
func (p *Postgres) RegisterWorker(ctx context.Context, w Worker) (Worker, error) {
	if w.Host == "" || w.Slots < 1 {
		return Worker{}, fmt.Errorf("a worker needs a host and at least one slot, got %q and %d", w.Host, w.Slots)
	}
	if w.Sandbox == nil {
		w.Sandbox = []string{}
	}
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return Worker{}, err
	}
	defer tx.Rollback(ctx)
	// One round trip between begin and commit: a worker's start waits for it.
	b := &pgx.Batch{}
	b.Queue(`UPDATE workers SET stopped = heartbeat
		WHERE host = $1 AND stopped IS NULL AND heartbeat < now() - make_interval(secs => $2)`, w.Host, AliveWindow.Seconds())
	b.Queue(`INSERT INTO workers (host, pid, version, engine, sandbox, slots, queue_client, started, heartbeat)
		VALUES ($1, $2, $3, $4, $5, $6, $7, `+pgNow+`, `+pgNow+`) RETURNING id, started, heartbeat`,
		w.Host, w.PID, w.Version, w.Engine, w.Sandbox, w.Slots, nullIfEmpty(w.QueueClient)).QueryRow(func(row pgx.Row) error {
		return row.Scan(&w.ID, &w.Started, &w.Heartbeat)
	})
	// The coordinator hears of it at the commit (WorkersJoining).
	b.Queue(`SELECT pg_notify($1, current_schema())`, workersChannel)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Worker{}, err
	}
	w.Started, w.Heartbeat, w.Stopped = w.Started.UTC(), w.Heartbeat.UTC(), time.Time{}
	return w, tx.Commit(ctx)
}

// nullIfEmpty is a text column's value for s: NULL for none.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// workersChannel is the channel a registration notifies, with the ladder's schema as
// the payload (ladders in other schemas of the database share the channel).
const workersChannel = "arena_workers"

// WorkersJoining hears of every worker that registers (RegisterWorker) until ctx ends,
// on a connection of its own: the channel it returns gets a value after each (one
// waiting at most, however many joined meanwhile). When the connection fails, it
// connects again a second later; registrations meanwhile go unheard.
func (p *Postgres) WorkersJoining(ctx context.Context) <-chan struct{} {
	joined := make(chan struct{}, 1)
	go func() {
		for ctx.Err() == nil {
			if err := p.listenWorkers(ctx, joined); err != nil && ctx.Err() == nil {
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
		}
	}()
	return joined
}

// listenWorkers passes the registrations of this ladder's workers on to joined until
// ctx ends or the connection fails.
func (p *Postgres) listenWorkers(ctx context.Context, joined chan<- struct{}) error {
	conn, err := pgx.ConnectConfig(ctx, p.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var schema string
	if err := conn.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `LISTEN `+workersChannel); err != nil {
		return err
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Payload != schema {
			continue
		}
		select {
		case joined <- struct{}{}:
		default:
		}
	}
}

// Heartbeat moves the worker's last sign of life to now.
func (p *Postgres) Heartbeat(ctx context.Context, id int64) error {
	tag, err := p.pool.Exec(ctx, `UPDATE workers SET heartbeat = `+pgNow+` WHERE id = $1 AND stopped IS NULL`, id)
	if err == nil && tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: no running worker %d", ErrNotFound, id)
	}
	return err
}

// StopWorker marks the worker stopped now, once.
func (p *Postgres) StopWorker(ctx context.Context, id int64) error {
	var stopped time.Time
	err := p.pool.QueryRow(ctx, `UPDATE workers SET stopped = COALESCE(stopped, `+pgNow+`) WHERE id = $1 RETURNING stopped`, id).Scan(&stopped)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: worker %d", ErrNotFound, id)
	}
	return err
}

// Workers lists every registered worker, oldest first.
func (p *Postgres) Workers(ctx context.Context) ([]Worker, error) {
	rows, err := p.pool.Query(ctx, `SELECT `+workerCols+` FROM workers w ORDER BY id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Worker, error) { return scanWorker(row) })
}

// workerCols are the columns scanWorker reads, of workers aliased w.
const workerCols = `w.id, w.host, w.pid, w.version, w.engine, w.sandbox, w.slots, COALESCE(w.queue_client, ''), w.started, w.heartbeat, w.stopped`

// scanWorker reads workerCols and then the row's extra columns into extra.
func scanWorker(row pgx.CollectableRow, extra ...any) (Worker, error) {
	var w Worker
	var stopped *time.Time
	err := row.Scan(append([]any{&w.ID, &w.Host, &w.PID, &w.Version, &w.Engine, &w.Sandbox, &w.Slots, &w.QueueClient, &w.Started, &w.Heartbeat, &stopped}, extra...)...)
	w.Started, w.Heartbeat, w.Stopped = w.Started.UTC(), w.Heartbeat.UTC(), fromPg(stopped)
	return w, err
}

// SilentClients are the work-queue clients (Worker.QueueClient) of the workers whose
// last heartbeat is older than silentFor, stopped or not (a worker superseded by its
// host's next one is marked stopped, its jobs still running), and younger than
// WorkerHorizon, beyond which their jobs' leases have long run out; not a client that
// heartbeats under another entry (a superseded worker that woke and registered again,
// KeepAlive).
func (p *Postgres) SilentClients(ctx context.Context, silentFor time.Duration) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT DISTINCT queue_client FROM workers w
		WHERE queue_client IS NOT NULL AND heartbeat < now() - make_interval(secs => $1)
			AND heartbeat > now() - make_interval(secs => $2)
			AND NOT EXISTS (SELECT 1 FROM workers a WHERE a.queue_client = w.queue_client
				AND a.heartbeat >= now() - make_interval(secs => $1))
		ORDER BY queue_client`, silentFor.Seconds(), WorkerHorizon.Seconds())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
