// Command sleepybot is a test bot: the random player, sleeping before every decision
// so that a game lasts long enough for a test to kill the arena in the middle of one.
// The sleep is set at build time: go build -ldflags "-X main.sleep=3ms".
package main

import (
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

var sleep = "2ms"

func main() {
	d, err := time.ParseDuration(sleep)
	if err != nil {
		panic(err)
	}
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		p := random.New(m.Seed)
		return engine.PolicyFunc(func(v engine.View, ev []engine.Event, opts []engine.Option) int {
			time.Sleep(d)
			return p.Choose(v, ev, opts)
		})
	})
}
