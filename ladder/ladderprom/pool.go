package ladderprom

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

var (
	descPoolAcquired = prometheus.NewDesc("arena_db_pool_acquired_connections",
		"Connections of a PostgreSQL pool in use now, by pool (store: the ladder's tables; queue: River's work queue).", []string{"pool"}, nil)
	descPoolMax = prometheus.NewDesc("arena_db_pool_max_connections",
		"The most connections a PostgreSQL pool opens, by pool.", []string{"pool"}, nil)
	descPoolEmpty = prometheus.NewDesc("arena_db_pool_empty_acquires_total",
		"Connections taken from a PostgreSQL pool that had to wait because every one was in use, by pool.", []string{"pool"}, nil)
	descPoolWait = prometheus.NewDesc("arena_db_pool_acquire_wait_seconds_total",
		"Time spent waiting for a connection of a PostgreSQL pool, by pool.", []string{"pool"}, nil)
	descPoolCanceled = prometheus.NewDesc("arena_db_pool_canceled_acquires_total",
		"Waits for a connection of a PostgreSQL pool that ended without one (the caller's deadline or a stop), by pool.", []string{"pool"}, nil)
)

// poolCollector reads a pool's statistics at scrape time.
type poolCollector struct {
	name string
	stat func() *pgxpool.Stat
}

// Pool exports the use of a PostgreSQL connection pool named name, read from stat
// (pgxpool.Pool.Stat) at every scrape: a pool whose every connection is in use and
// whose callers wait is a ladder slowed by its database.
func Pool(name string, stat func() *pgxpool.Stat) prometheus.Collector {
	return poolCollector{name, stat}
}

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPoolAcquired, descPoolMax, descPoolEmpty, descPoolWait, descPoolCanceled} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := p.stat()
	ch <- prometheus.MustNewConstMetric(descPoolAcquired, prometheus.GaugeValue, float64(s.AcquiredConns()), p.name)
	ch <- prometheus.MustNewConstMetric(descPoolMax, prometheus.GaugeValue, float64(s.MaxConns()), p.name)
	ch <- prometheus.MustNewConstMetric(descPoolEmpty, prometheus.CounterValue, float64(s.EmptyAcquireCount()), p.name)
	ch <- prometheus.MustNewConstMetric(descPoolWait, prometheus.CounterValue, s.EmptyAcquireWaitTime().Seconds(), p.name)
	ch <- prometheus.MustNewConstMetric(descPoolCanceled, prometheus.CounterValue, float64(s.CanceledAcquireCount()), p.name)
}
