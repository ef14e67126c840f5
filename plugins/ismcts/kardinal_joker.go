package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
)

// jokerPrice is the tree's price of Kardinal placements paid with a joker: x off
// every reward backed up through one (nil where x is not positive), so that its mean
// is x below what its play-outs scored. Against the heuristic the search paid for
// far more pieces with jokers (two cards for one piece) than the heuristic did, and
// its play-outs, cut off before the seat's next turns, do not see what the cards
// spent would have placed.
func jokerPrice(x float64) func(o engine.Option) float32 {
	if x <= 0 {
		return nil
	}
	return func(o engine.Option) float32 {
		if p, ok := kardinal.AsPlacement(o); ok && p.Joker {
			return float32(x)
		}
		return 0
	}
}
