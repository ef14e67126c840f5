package arena

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/protocol/bot"
)

// gatedLauncher counts its launches and holds each until open is closed.
type gatedLauncher struct {
	open     chan struct{}
	launches atomic.Int32
}

func (g *gatedLauncher) Launch(ctx context.Context, _ bot.LaunchConfig) (bot.Process, error) {
	g.launches.Add(1)
	select {
	case <-g.open:
		return &fakeProc{}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *gatedLauncher) CheckGame(string) error { return nil }

// startingBot is an entrant's bot in a run of seed and tag with pool.
func startingBot(pool *Pool, l bot.Launcher, seed uint64, tag string) *botProc {
	return &botProc{entrant: Entrant{Name: "b", Keep: Keep{Bot: "b", Version: 1}}, launcher: l, pool: pool,
		seed: seed, tag: tag, log: hclog.NewNullLogger(), obs: nopObserver{}, procs: make([]bot.Process, 2)}
}

// TestRunsStartingAtOnceShareOneStart: runs that begin side by side (a worker's slots
// as it starts) start one process for a seat they can share, not one each; a run that
// cannot share it (a seed the process plays under) starts its own once the first
// start is over; a run whose ctx ends while it waits stops waiting.
func TestRunsStartingAtOnceShareOneStart(t *testing.T) {
	pool := NewPool(PoolConfig{Share: 3})
	gate := &gatedLauncher{open: make(chan struct{})}
	runs := []*botProc{startingBot(pool, gate, 1, "block-1"), startingBot(pool, gate, 2, "block-2"), startingBot(pool, gate, 1, "block-3")}
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, b := range runs {
		wg.Go(func() { errs[i] = b.start(context.Background(), 0) })
	}
	poll.Until(t, "the first start", func() bool { return gate.launches.Load() >= 1 })
	cancelled, cancel := context.WithCancel(context.Background())
	waiting := make(chan error, 1)
	go func() { _, _, err := startingBot(pool, gate, 4, "block-4").launch(cancelled, 0); waiting <- err }()
	cancel()
	select {
	case err := <-waiting:
		require.ErrorIs(t, err, context.Canceled, "a run whose ctx ended stops waiting")
	case <-time.After(poll.Limit):
		t.Fatal("a cancelled run still waits for another's start")
	}
	assert.EqualValues(t, 1, gate.launches.Load(), "the others wait for the first start")
	close(gate.open)
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "run %d", i)
	}
	assert.EqualValues(t, 2, gate.launches.Load(), "one start for seed 1 and 2, one more for the other seed 1")
	one, two, three := runs[0].procs[0].(*lease).k, runs[1].procs[0].(*lease).k, runs[2].procs[0].(*lease).k
	assert.NotSame(t, one, three, "a process never plays under a seed twice")
	assert.True(t, two == one || two == three, "block-2 shares the process of a run of seed 1")
	for _, b := range runs {
		b.stop(context.Background(), time.Second)
	}
	pool.Close(context.Background(), time.Second)
}
