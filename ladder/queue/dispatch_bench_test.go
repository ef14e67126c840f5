package queue

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store/pgtest"
)

// napArgs is a job that stands for a block costing no CPU: its worker sleeps.
type napArgs struct{}

func (napArgs) Kind() string { return "arena_bench_nap" }

type napWorker struct {
	river.WorkerDefaults[napArgs]
	nap  time.Duration
	left atomic.Int64
	done chan struct{}
}

func (w *napWorker) Work(ctx context.Context, _ *river.Job[napArgs]) error {
	time.Sleep(w.nap)
	if w.left.Add(-1) == 0 {
		close(w.done)
	}
	return nil
}

// BenchmarkDispatch measures the blocks per second the queue hands one worker when a
// block costs no CPU (it sleeps 20 ms) and the queue is full: the queue's own ceiling,
// apart from the bots, so a loaded machine moves it little. At 1, 2 and 4 slots, with
// the worker's River configuration and with River's default fetch cooldown (100 ms),
// which capped a worker at about ten blocks a second whatever its slots.
//
//	ARENA_TEST_POSTGRES=$url go test -run '^$' -bench Dispatch -benchtime 200x ./ladder/queue/
func BenchmarkDispatch(b *testing.B) {
	url := pgtest.URL(b)
	ctx := context.Background()
	pool, err := Connect(ctx, url)
	require.NoError(b, err)
	defer pool.Close()
	for _, cooldown := range []struct {
		name string
		d    time.Duration
	}{{"worker", fetchCooldown}, {"river-default", river.FetchCooldownDefault}} {
		for _, slots := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/j%d", cooldown.name, slots), func(b *testing.B) {
				w := &napWorker{nap: 20 * time.Millisecond, done: make(chan struct{})}
				w.left.Store(int64(b.N))
				workers := river.NewWorkers()
				river.AddWorker(workers, w)
				cfg := clientConfig(WorkerConfig{Slots: slots, Lease: time.Hour, Timeout: time.Minute, Log: io.Discard}, workers)
				cfg.FetchCooldown = cooldown.d
				client, err := river.NewClient(riverpgxv5.New(pool), cfg)
				require.NoError(b, err)
				jobs := make([]river.InsertManyParams, b.N)
				for i := range jobs {
					jobs[i] = river.InsertManyParams{Args: napArgs{}, InsertOpts: &river.InsertOpts{Queue: Queue}}
				}
				_, err = client.InsertMany(ctx, jobs)
				require.NoError(b, err)
				b.ResetTimer()
				require.NoError(b, client.Start(ctx))
				<-w.done
				b.StopTimer()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
				require.NoError(b, client.StopAndCancel(ctx))
			})
		}
	}
}
