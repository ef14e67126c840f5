package queue

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// A worker's River pool opens the connections River's start takes at once (its
// listener, elector, producer and completer) while River's tables are checked. (The
// ladder's tables are there: its coordinator made them, as a worker finds them.)
func TestAWorkersQueuePoolOpensRiversConnectionsAhead(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	made, err := Connect(ctx, url)
	require.NoError(t, err)
	made.Close()
	pool, err := ConnectWorker(ctx, url)
	require.NoError(t, err)
	defer pool.Close()
	want := min(int32(WorkerConns), pool.Config().MaxConns)
	ok := poll.Eventually(func() bool { return pool.Stat().TotalConns() >= want })
	require.True(t, ok, "%d of %d connections open (min %d)", pool.Stat().TotalConns(), want, pool.Config().MinConns)
}
