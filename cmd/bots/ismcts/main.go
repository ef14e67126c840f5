// Command ismcts is the search bot as a standalone plugin binary. Its settings are its
// arguments, as after the colon of the built-in name (plugins/ismcts.ParseSettings):
// `go build -o ismcts ./cmd/bots/ismcts`, then a wrapper script or `arena match ./ismcts
// heuristic` for the defaults (100 ms per decision).
//
// default.pgo beside it is a CPU profile of the search over whole games of every cell,
// which the Go toolchain uses to guide this program's build: 4-6% more iterations in
// the same CPU, the same moves (docs/performance.md, "The search's build guided by a
// profile", says how it was made and how to make it again).
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/arena-games/arena/plugins/builtin"
)

func main() {
	name := "ismcts"
	if len(os.Args) > 1 {
		name += ":" + strings.Join(os.Args[1:], ",")
	}
	if err := builtin.Serve(name); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
