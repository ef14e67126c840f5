package ladderprom

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestPoolShowsExhaustion: a real pool of two connections, both held, and a caller
// that gives up waiting for a third: the series say every connection is in use and
// count the wait that got none; a second pool of the process, idle, is exported beside
// it.
func TestPoolShowsExhaustion(t *testing.T) {
	cfg, err := pgxpool.ParseConfig(pgtest.URL(t))
	require.NoError(t, err)
	cfg.MaxConns = 2
	ctx := context.Background()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close) // after the connections' releases below
	reg := prometheus.NewRegistry()
	idle, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(idle.Close)
	reg.MustRegister(Pools(PoolStats{"queue": pool.Stat, "store": idle.Stat}))
	for range 2 {
		c, err := pool.Acquire(ctx)
		require.NoError(t, err)
		t.Cleanup(c.Release)
	}
	// Both are held: the wait can only end by its deadline, however short.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = pool.Acquire(short)
	require.Error(t, err)
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(`
# HELP arena_db_pool_acquired_connections Connections of a PostgreSQL pool in use now, by pool (store: the ladder's tables; queue: River's work queue).
# TYPE arena_db_pool_acquired_connections gauge
arena_db_pool_acquired_connections{pool="queue"} 2
arena_db_pool_acquired_connections{pool="store"} 0
# HELP arena_db_pool_max_connections The most connections a PostgreSQL pool opens, by pool.
# TYPE arena_db_pool_max_connections gauge
arena_db_pool_max_connections{pool="queue"} 2
arena_db_pool_max_connections{pool="store"} 2
# HELP arena_db_pool_canceled_acquires_total Waits for a connection of a PostgreSQL pool that ended without one (the caller's deadline or a stop), by pool.
# TYPE arena_db_pool_canceled_acquires_total counter
arena_db_pool_canceled_acquires_total{pool="queue"} 1
arena_db_pool_canceled_acquires_total{pool="store"} 0
`), "arena_db_pool_acquired_connections", "arena_db_pool_max_connections", "arena_db_pool_canceled_acquires_total"))
}
