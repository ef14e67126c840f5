package store

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// A worker's store opens the connections its first block reads need at once, in the
// background, and keeps them; a store opened cold dials one as each is first needed.
func TestAWarmStoreOpensItsConnectionsAhead(t *testing.T) {
	url := pgtest.URL(t)
	warm, err := OpenPostgresWarm(ctx, url, t.TempDir(), 3)
	require.NoError(t, err)
	defer warm.Close()
	poll.Until(t, "three connections open", func() bool { return warm.PoolStat().TotalConns() >= 3 })

	cold, err := OpenPostgres(ctx, url, t.TempDir())
	require.NoError(t, err)
	defer cold.Close()
	// Its open (a ping and the schema's check) used one; nothing opens more.
	assert.False(t, poll.Within(poll.Limit/20, func() bool { return cold.PoolStat().TotalConns() > 1 }),
		"a cold store opened %d connections", cold.PoolStat().TotalConns())
}

// The connections warmed are at most the pool's, and a URL's own pool_min_conns wins.
func TestWarmPoolKeepsTheURLsAndThePoolsBounds(t *testing.T) {
	for _, c := range []struct {
		url   string
		conns int
		want  int32
	}{
		{"postgres://h/db", 3, 3},
		{"postgres://h/db", 0, 0},
		{"postgres://h/db?pool_max_conns=2", 5, 2},
		{"postgres://h/db?pool_min_conns=1", 5, 1},
	} {
		cfg, err := pgxpool.ParseConfig(c.url)
		require.NoError(t, err)
		WarmPool(cfg, c.conns)
		assert.Equal(t, c.want, cfg.MinConns, "%s, %d", c.url, c.conns)
	}
}
