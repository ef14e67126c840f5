// Command heuristic is the rules-of-thumb reference bot as a standalone plugin binary:
// `go build -o heuristic ./cmd/bots/heuristic && arena match ./heuristic random`.
package main

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/protocol"
)

// A policy per match, as the built-in heuristic (plugins/builtin), which this program
// serves when it lies beside the arena.
func main() {
	protocol.ServeMatches(func(protocol.Match) engine.Policy { return heuristic.New() })
}
