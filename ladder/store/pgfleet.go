package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arena-games/arena/ladder/queue/jobtable"
)

var _ FleetReader = (*Postgres)(nil)

// Fleet reads the work queue's depth (jobtable.Count: until River's migrations ran
// there is no queue, and no depth), the workers and their recent games.
func (p *Postgres) Fleet(ctx context.Context, window time.Duration) (Fleet, error) {
	f := Fleet{Window: window}
	q, err := jobtable.Count(ctx, p.pool)
	if err != nil {
		return Fleet{}, err
	}
	f.Queued, f.OldestQueued, f.GivenUp, f.Retrying = q.Queued, q.OldestQueued, q.GivenUp, q.Retrying
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
