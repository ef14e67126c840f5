package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"
)

// ErrInUse is wrapped by LockRun's error when another process holds the run lock.
var ErrInUse = errors.New("in use")

// RunLocker is a store that locks itself for one `ladder run` at a time (a server
// database, shared by machines that see no common file to lock).
type RunLocker interface {
	// LockRun takes the lock, or fails at once with an error wrapping ErrInUse that
	// says who holds it; unlock releases it. The lock goes with the process.
	LockRun(ctx context.Context) (unlock func(), err error)
}

// runLock is the first half of a ladder run's advisory lock key; the second is a hash
// of the schema, since a database can hold several ladders, one per schema. In
// pg_locks the halves are classid and objid.
const runLock = 0x6c616464 // "ladd"

// LockRun holds a session-level advisory lock on a connection of its own: the server
// drops it when the connection ends, however the process ends. The holder names
// itself in application_name, so that the next one's error can say who it is.
func (p *Postgres) LockRun(ctx context.Context) (func(), error) {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, hashtext(current_schema()))`, runLock).Scan(&ok); err != nil {
		conn.Release()
		return nil, err
	}
	if !ok {
		holder := "another process"
		var app, host string
		err := conn.QueryRow(ctx, `SELECT COALESCE(a.application_name, ''), COALESCE(host(a.client_addr), 'a local socket')
			FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1
				AND l.objid::bigint = hashtext(current_schema())::bigint & 4294967295
				AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
			runLock).Scan(&app, &host)
		if err == nil && app != "" {
			holder = fmt.Sprintf("%s, from %s,", app, host)
		} else if !errors.Is(err, pgx.ErrNoRows) && err != nil {
			holder = "another process (" + err.Error() + ")"
		}
		conn.Release()
		return nil, fmt.Errorf("%w: %s is running `ladder run` on it", ErrInUse, holder)
	}
	host, _ := os.Hostname()
	_, _ = conn.Exec(ctx, `SELECT set_config('application_name', $1, false)`, fmt.Sprintf("arena ladder run, pid %d on %s", os.Getpid(), host))
	p.lockPID.Store(conn.Conn().PgConn().PID())
	return func() {
		_, _ = conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1, hashtext(current_schema()))`, runLock)
		conn.Release()
	}, nil
}

// RunLockHeld fails, with an error wrapping ErrInUse, unless the run lock LockRun took
// is still held: a server restart or a broken connection drops it while the process
// goes on, and a long-running holder (a coordinator) must then stop, or another could
// take the lock beside it.
func (p *Postgres) RunLockHeld(ctx context.Context) error {
	pid := p.lockPID.Load()
	var held bool
	err := p.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND pid = $1 AND classid::bigint = $2 AND objid::bigint = hashtext(current_schema())::bigint & 4294967295
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`, int64(pid), runLock).Scan(&held)
	if err != nil {
		return err
	}
	if pid == 0 || !held {
		return fmt.Errorf("%w: the run lock of %s was lost (did the server restart?)", ErrInUse, p.url)
	}
	return nil
}
