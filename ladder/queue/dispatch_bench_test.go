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
	nap   time.Duration
	slots *slots
	left  atomic.Int64
	done  chan struct{}
	// most is the most naps taken at once.
	now, most atomic.Int64
}

func (w *napWorker) Work(ctx context.Context, _ *river.Job[napArgs]) error {
	if err := w.slots.take(ctx); err != nil {
		return err
	}
	defer w.slots.give()
	n := w.now.Add(1)
	for m := w.most.Load(); n > m && !w.most.CompareAndSwap(m, n); m = w.most.Load() {
	}
	time.Sleep(w.nap)
	w.now.Add(-1)
	if w.left.Add(-1) == 0 {
		close(w.done)
	}
	return nil
}

// BenchmarkDispatch measures the blocks per second the queue hands one worker when a
// block costs no CPU (it sleeps 20 ms) and the queue is full: the queue's own ceiling,
// apart from the bots, so a loaded machine moves it little. At 1, 2 and 4 slots, with
// the worker's River configuration (a job in hand), without the job in hand, and with
// River's defaults (100 ms fetch cooldown, no job in hand), which capped a worker at
// about ten blocks a second whatever its slots. No more naps than slots run at once.
//
//	ARENA_TEST_POSTGRES=$url go test -run '^$' -bench Dispatch -benchtime 200x ./ladder/queue/
func BenchmarkDispatch(b *testing.B) {
	url := pgtest.URL(b)
	ctx := context.Background()
	pool, err := Connect(ctx, url)
	require.NoError(b, err)
	defer pool.Close()
	for _, variant := range []struct {
		name     string
		cooldown time.Duration
		hand     bool
	}{{"worker", fetchCooldown, true}, {"no-hand", fetchCooldown, false}, {"river-default", river.FetchCooldownDefault, false}} {
		for _, n := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/j%d", variant.name, n), func(b *testing.B) {
				w := &napWorker{nap: 20 * time.Millisecond, slots: newSlots(n), done: make(chan struct{})}
				w.left.Store(int64(b.N))
				workers := river.NewWorkers()
				river.AddWorker(workers, w)
				cfg := clientConfig(WorkerConfig{Slots: n, Lease: time.Hour, Timeout: time.Minute, Log: io.Discard}, workers)
				cfg.FetchCooldown = variant.cooldown
				if !variant.hand {
					cfg.Queues = map[string]river.QueueConfig{Queue: {MaxWorkers: n}}
				}
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
				require.LessOrEqual(b, w.most.Load(), int64(n), "no more blocks play at once than slots")
			})
		}
	}
}
