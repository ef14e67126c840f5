// Command crashbot plays at random, 10 ms a decision, and exits with status 2 at its
// 30th decision: a bot that crash-loops, for the alerting test. The 10 ms keep its run
// going for several of Prometheus's 1 s scrapes (at full speed it ended before the
// first, and a counter first seen at its final value shows no increase).
package main

import (
	"os"
	"sync/atomic"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

var decisions atomic.Int64

func main() {
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		r := random.New(m.Seed)
		return engine.PolicyFunc(func(v engine.View, ev []engine.Event, opts []engine.Option) int {
			if decisions.Add(1) == 30 {
				os.Exit(2)
			}
			time.Sleep(10 * time.Millisecond)
			return r.Choose(v, ev, opts)
		})
	})
}
