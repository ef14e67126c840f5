package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ FleetReader = (*Postgres)(nil)

// Fleet reads the work queue's depth, the workers and their recent games. The queue
// is the job table of River (github.com/riverqueue/river), which keeps its own schema
// in the same database: until its migrations ran there is no queue, and no depth.
func (p *Postgres) Fleet(ctx context.Context, window time.Duration) (Fleet, error) {
	f := Fleet{Window: window}
	var queue bool
	if err := p.pool.QueryRow(ctx, `SELECT to_regclass('river_job') IS NOT NULL`).Scan(&queue); err != nil {
		return Fleet{}, err
	}
	if queue {
		var oldest float64
		err := p.pool.QueryRow(ctx, `SELECT COUNT(*) FILTER (WHERE state <> 'discarded'),
				COALESCE(EXTRACT(EPOCH FROM now() - MIN(created_at) FILTER (WHERE state <> 'discarded')), 0)::float8,
				COUNT(*) FILTER (WHERE state = 'discarded'), COUNT(*) FILTER (WHERE state = 'retryable')
			FROM river_job WHERE kind = $1 AND state IN ('available', 'pending', 'scheduled', 'retryable', 'discarded')`,
			BlockJobKind).Scan(&f.Queued, &oldest, &f.GivenUp, &f.Retrying)
		if err != nil {
			return Fleet{}, err
		}
		f.OldestQueued = seconds(oldest)
	}
	rows, err := p.pool.Query(ctx, `SELECT `+workerCols+`, EXTRACT(EPOCH FROM now() - w.heartbeat)::float8,
			(SELECT COUNT(*) FROM matches m WHERE m.worker_id = w.id AND m.recorded > now() - make_interval(secs => $1))
		FROM workers w
		WHERE (w.stopped IS NULL AND w.heartbeat > now() - make_interval(secs => $2)) OR w.stopped > now() - make_interval(secs => $1)
		ORDER BY w.id`, window.Seconds(), WorkerHorizon.Seconds())
	if err != nil {
		return Fleet{}, err
	}
	f.Workers, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (FleetWorker, error) {
		var age float64
		var w FleetWorker
		var err error
		w.Worker, err = scanWorker(row, &age, &w.Games)
		w.HeartbeatAge = seconds(age)
		w.Alive = w.Stopped.IsZero() && w.HeartbeatAge <= AliveWindow
		if w.Alive {
			f.Alive++
		}
		return w, err
	})
	return f, err
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
