// Command panicbot is a Go bot whose policy panics at its third decision, for the tests
// that check a panic's message and stack reach the bot's author.
package main

import (
	"sync/atomic"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
)

var calls atomic.Int64

func choose(engine.View, []engine.Event, []engine.Option) int {
	if calls.Add(1) == 3 {
		explode()
	}
	return 0
}

func explode() { panic("the third decision broke me") }

func main() { protocol.Serve(engine.PolicyFunc(choose)) }
