package arena

import (
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// latencies are one bot's decision times over a whole run, in a fixed-size HDR
// histogram (1 µs to an hour at 2 significant digits: about 1%, some 40 KiB whatever
// the run's length), with the exact count, sum and maximum beside it.
type latencies struct {
	mu  sync.Mutex
	h   *hdrhistogram.Histogram
	n   int
	sum time.Duration
	max time.Duration
}

func newLatencies() *latencies {
	return &latencies{h: hdrhistogram.New(1, int64(time.Hour/time.Microsecond), 2)}
}

// add counts one answered decision.
func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	l.sum += d
	l.max = max(l.max, d)
	_ = l.h.RecordValue(min(max(int64(d/time.Microsecond), 1), l.h.HighestTrackableValue())) // above an hour: at the top
}

// summary fills in the bot's decision count and latencies.
func (l *latencies) summary(bs *BotStats) {
	l.mu.Lock()
	defer l.mu.Unlock()
	bs.Decisions = l.n
	if l.n == 0 {
		return
	}
	ms := func(us int64) float64 { return float64(us) / 1000 }
	bs.MeanLatencyMs = float64(l.sum) / float64(l.n) / float64(time.Millisecond)
	bs.P50LatencyMs = min(ms(l.h.ValueAtQuantile(50)), float64(l.max)/float64(time.Millisecond))
	bs.P99LatencyMs = min(ms(l.h.ValueAtQuantile(99)), float64(l.max)/float64(time.Millisecond))
	bs.MaxLatencyMs = float64(l.max) / float64(time.Millisecond)
}
