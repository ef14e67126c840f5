package ladderprom

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/arena-games/arena/ladder/store"
)

// GamesWindow is the span over which a worker's games per second are counted: long
// enough to hold several games of a slow bot on every slot, short enough to show a
// worker slowing down within a minute or two.
const GamesWindow = time.Minute

var (
	descQueued = prometheus.NewDesc("arena_ladder_queue_depth",
		"Blocks waiting in the shared ladder's work queue (enqueued, not yet taken by a worker, or waiting to be retried), read from the database.", nil, nil)
	descOldest = prometheus.NewDesc("arena_ladder_queue_oldest_age_seconds",
		"How long ago the oldest block waiting in the work queue was enqueued (0 for none), by the database's clock.", nil, nil)
	descGivenUp = prometheus.NewDesc("arena_ladder_queue_given_up",
		"Blocks whose job failed its last attempt: they stay open and unplayed until an operator looks (the workers' logs say why).", nil, nil)
	descRetrying = prometheus.NewDesc("arena_ladder_queue_retrying",
		"Queued blocks whose job failed an attempt and waits to be retried (the workers' logs say why).", nil, nil)
	descAlive = prometheus.NewDesc("arena_ladder_workers_alive",
		"Workers that have not stopped and heartbeat within the last 30 s (three heartbeats), read from the database.", nil, nil)
	descWorkerAlive = prometheus.NewDesc("arena_ladder_worker_alive",
		"1 for a worker heartbeating (within 30 s), 0 for one gone silent without stopping; a worker gone longer than a day, or stopped over a minute ago, is not listed.",
		[]string{"worker", "host"}, nil)
	descHeartbeatAge = prometheus.NewDesc("arena_ladder_worker_heartbeat_age_seconds",
		"How long ago a worker last heartbeat, by the database's clock.", []string{"worker", "host"}, nil)
	descWorkerRate = prometheus.NewDesc("arena_ladder_worker_games_per_second",
		"Games a worker recorded in the last minute, per second, read from the database.", []string{"worker", "host"}, nil)
	descWorkerSlots = prometheus.NewDesc("arena_ladder_worker_slots",
		"Games a worker plays at once, as it registered.", []string{"worker", "host"}, nil)
)

var fleetDescs = []*prometheus.Desc{descQueued, descOldest, descGivenUp, descRetrying, descAlive, descWorkerAlive, descHeartbeatAge, descWorkerRate, descWorkerSlots}

// fleetState is the last good read of a store's Fleet.
type fleetState struct {
	src  store.FleetReader // nil for a store without workers
	ok   bool
	last store.Fleet
}

// readFleet reads the fleet (Refresh does, never a scrape); a failed read is counted
// (op "fleet") and the last good one stands.
func (e *Exporter) readFleet(ctx context.Context) {
	if e.fleet.src == nil {
		return
	}
	f, err := e.fleet.src.Fleet(ctx, GamesWindow)
	if err != nil {
		counted{errs: e.errs}.count("fleet", err)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fleet.ok, e.fleet.last = true, f
}

func (e *Exporter) collectFleet(ch chan<- prometheus.Metric) {
	if !e.fleet.ok {
		return
	}
	f := e.fleet.last
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(descQueued, float64(f.Queued))
	gauge(descOldest, f.OldestQueued.Seconds())
	gauge(descGivenUp, float64(f.GivenUp))
	gauge(descRetrying, float64(f.Retrying))
	gauge(descAlive, float64(f.Alive))
	for _, w := range f.Workers {
		id := strconv.FormatInt(w.ID, 10)
		alive := 0.0
		if w.Alive {
			alive = 1
		}
		if w.Stopped.IsZero() {
			gauge(descWorkerAlive, alive, id, w.Host)
			gauge(descHeartbeatAge, w.HeartbeatAge.Seconds(), id, w.Host)
		}
		gauge(descWorkerRate, float64(w.Games)/f.Window.Seconds(), id, w.Host)
		gauge(descWorkerSlots, float64(w.Slots), id, w.Host)
	}
}
