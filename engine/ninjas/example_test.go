package ninjas_test

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// A game played to the end by always taking the fallback option: every seat discards its
// cheapest card and never answers, so the turn bound decides.
func ExampleNew() {
	g, err := ninjas.New(1, 3)
	if err != nil {
		panic(err)
	}
	for !g.Terminal() {
		_ = g.Apply(g.Fallback())
	}
	r := g.Result()
	fmt.Println(g.Turns(), r.Adjudicated, r.Score)
	for _, e := range engine.EventsFor(nil, g.Log(), 0, 0)[:4] {
		fmt.Println(g.DescribeEvent(e))
	}
	// Output:
	// 2000 true [5 5 5]
	// seat 0 takes the first turn
	// seat 0 draws a Peasant
	// seat 0 draws a Minstrel
	// seat 0 draws 2 cards
}
