// Command heuristic is the rules-of-thumb reference bot as a standalone plugin binary:
// `go build -o heuristic ./cmd/bots/heuristic && arena match ./heuristic random`.
package main

import (
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/protocol"
)

func main() { protocol.Serve(heuristic.New()) }
