package main

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
)

// Try a bot before building it: choose is an engine.Policy (protocol.Serve serves it
// as a bot process in main), and engine.PlayOut plays games in-process, here in seat 0
// against a seat that always takes the first legal option.
func Example() {
	first := engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int { return 0 })
	wins := 0
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := ivanhoe.New(seed, 2)
		if err != nil {
			panic(err)
		}
		if err := engine.PlayOut(g, []engine.Policy{engine.PolicyFunc(choose), first}); err != nil {
			panic(err)
		}
		if g.Result().Place[0] == 0 {
			wins++
		}
	}
	fmt.Printf("firstbot won %d of 20 games\n", wins)
	// Output:
	// firstbot won 11 of 20 games
}
