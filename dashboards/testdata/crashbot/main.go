// Command crashbot plays at random and exits with status 2 at its 30th decision: a bot
// that crash-loops, for the alerting test.
package main

import (
	"os"
	"sync/atomic"

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
			return r.Choose(v, ev, opts)
		})
	})
}
