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

// PoolStats are a process's connection pools by name, each with its pgxpool.Pool.Stat.
type PoolStats map[string]func() *pgxpool.Stat

// poolCollector reads pools' statistics at scrape time.
type poolCollector PoolStats

// Pools exports the use of a process's PostgreSQL connection pools, each under its
// name (label pool) and read from its stat (pgxpool.Pool.Stat) at every scrape: a pool
// whose every connection is in use and whose callers wait is a ladder slowed by its
// database. One collector holds them all: a registry refuses a second collector of
// the same series, so a collector per pool would export only the first.
func Pools(stats PoolStats) prometheus.Collector {
	return poolCollector(stats)
}

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPoolAcquired, descPoolMax, descPoolEmpty, descPoolWait, descPoolCanceled} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	for name, stat := range p {
		s := stat()
		ch <- prometheus.MustNewConstMetric(descPoolAcquired, prometheus.GaugeValue, float64(s.AcquiredConns()), name)
		ch <- prometheus.MustNewConstMetric(descPoolMax, prometheus.GaugeValue, float64(s.MaxConns()), name)
		ch <- prometheus.MustNewConstMetric(descPoolEmpty, prometheus.CounterValue, float64(s.EmptyAcquireCount()), name)
		ch <- prometheus.MustNewConstMetric(descPoolWait, prometheus.CounterValue, s.EmptyAcquireWaitTime().Seconds(), name)
		ch <- prometheus.MustNewConstMetric(descPoolCanceled, prometheus.CounterValue, float64(s.CanceledAcquireCount()), name)
	}
}
