package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/ladder/queue/jobtable"
	"github.com/arena-games/arena/ladder/store"
)

// fleetWatch is what the coordinator last saw of the workers, so that its log says
// once when one joins, stops, or goes silent: a worker killed with its machine writes
// nothing itself. Its jobs go back to the queue once its heartbeat has been silent
// for store.RescueAfter (rescueSilent), not after their lease (a lease per block).
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
	c.rescueSilent(ctx)
}

// rescueSilent hands the jobs still running on workers silent for store.RescueAfter
// back to the queue (jobtable.Rescue), for the workers alive to play at once. A
// worker that only stalled and comes back finds its jobs' fence gone: the games it
// finished meanwhile are not recorded, and their rotations are played again.
func (c *Coordinator) rescueSilent(ctx context.Context) {
	clients, err := c.st.SilentClients(ctx, store.RescueAfter)
	if err == nil && len(clients) > 0 {
		var ids []int64
		ids, err = jobtable.Rescue(ctx, c.pool, clients, rescueReason)
		if len(ids) > 0 {
			c.cfg.Log.Warn("jobs of silent workers handed back to the queue", "jobs", ids, "silent_for", store.RescueAfter)
		}
	}
	if err != nil && ctx.Err() == nil {
		c.cfg.Log.Warn("handing back the jobs of silent workers", "err", err)
	}
}

// rescueReason is the attempt error of a job rescueSilent hands back.
var rescueReason = fmt.Sprintf("its worker's heartbeat was silent for over %v; handed back to the queue", store.RescueAfter)

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
			log.Warn("worker gone: no heartbeat within the alive window; its blocks go back to the queue if it stays silent",
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
