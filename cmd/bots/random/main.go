// Command random is the uniform random bot as a standalone plugin binary:
// `go build -o random ./cmd/bots/random && arena match ./random random`. Beside an
// arena of the same clean commit it is the built-in random (package companion).
package main

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

func main() {
	protocol.ServeMatches(func(m protocol.Match) engine.Policy { return random.New(m.Seed) })
}
