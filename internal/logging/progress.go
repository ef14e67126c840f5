package logging

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Progress counts what a long run does (games recorded) and logs it once per
// interval at info: a line per game, which a worker of 16 slots would write millions
// of times a day, belongs at debug.
type Progress struct {
	n, total atomic.Int64
}

// StartProgress logs msg every interval until ctx ends, with the count since the last
// line and in all. An interval with nothing new says so once, then keeps quiet until
// something happens: a stalled run shows in the log without filling it.
func StartProgress(ctx context.Context, log hclog.Logger, every time.Duration, msg string) *Progress {
	p := &Progress{}
	if every <= 0 {
		return p
	}
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		quiet := true // nothing to say before the first game
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			n := p.n.Swap(0)
			if n == 0 && quiet {
				continue
			}
			quiet = n == 0
			log.Info(msg, "new", n, "total", p.total.Load(), "interval", every.String())
		}
	}()
	return p
}

// Add counts n more.
func (p *Progress) Add(n int) {
	p.n.Add(int64(n))
	p.total.Add(int64(n))
}
