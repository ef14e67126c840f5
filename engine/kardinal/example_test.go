package kardinal_test

import (
	"fmt"

	"github.com/arena-games/arena/engine/kardinal"
)

// Play a game to its end with every seat taking the first legal option.
func ExampleNew() {
	g, err := kardinal.New(1, 3)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Describe(g.Options()[0]))
	for !g.Terminal() {
		_ = g.Apply(0)
	}
	r := g.Result()
	fmt.Println(len(r.Place), r.Adjudicated)
	// Output:
	// place a monastery in Frankreich on space 6, paying a joker of two Lothringen/Italien cards
	// 3 false
}
