package queue

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/ladder/store"
)

// fleetWatch is what the coordinator last saw of the workers, so that its log says
// once when one joins, stops, or goes silent: a worker killed with its machine writes
// nothing itself, and its blocks come back only after the lease.
type fleetWatch struct {
	alive map[int64]store.FleetWorker
	last  time.Time
}

// watchFleet reads the workers, at most once per store.HeartbeatEvery (no worker can
// be seen to go faster), and logs who joined and who went since the last look.
func (c *Coordinator) watchFleet(ctx context.Context) {
	if time.Since(c.fleet.last) < store.HeartbeatEvery {
		return
	}
	f, err := c.st.Fleet(ctx, store.AliveWindow)
	if err != nil {
		if ctx.Err() == nil {
			c.cfg.Log.Warn("reading the workers", "err", err)
		}
		return
	}
	c.fleet.last = time.Now()
	c.fleet.see(c.cfg.Log, f.Workers)
}

// see logs the changes from the workers alive at the last look to ws.
func (w *fleetWatch) see(log hclog.Logger, ws []store.FleetWorker) {
	now := map[int64]store.FleetWorker{}
	listed := map[int64]store.FleetWorker{}
	for _, fw := range ws {
		listed[fw.ID] = fw
		if fw.Alive {
			now[fw.ID] = fw
			if _, known := w.alive[fw.ID]; !known {
				log.Info("worker joined", workerArgs(fw)...)
			}
		}
	}
	for id, was := range w.alive {
		if _, ok := now[id]; ok {
			continue
		}
		fw, ok := listed[id]
		switch {
		case ok && !fw.Stopped.IsZero():
			log.Info("worker stopped", workerArgs(fw)...)
		case ok:
			log.Warn("worker gone: no heartbeat within the alive window; its blocks go back to the queue when their lease ends",
				append(workerArgs(fw), "window", store.AliveWindow)...)
		default: // past store.WorkerHorizon, or deleted: not listed any more
			log.Warn("worker gone: no longer listed", workerArgs(was)...)
		}
	}
	w.alive = now
}

func workerArgs(fw store.FleetWorker) []any {
	return []any{"worker", fw.ID, "host", fw.Host, "pid", fw.PID, "version", fw.Version, "slots", fw.Slots,
		"heartbeat_age", fw.HeartbeatAge.Round(time.Second)}
}
