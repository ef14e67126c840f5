// Command firstbot is the Go bot of the README's "A first bot": an
// Ivanhoe player that names the colour it holds most of, plays its strongest card
// until it leads the tournament, then ends its turn.
//
//	go build -o firstbot ./examples/firstbot
//	go run ./cmd/arena match ./firstbot random --games 20
package main

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol"
)

func choose(view engine.View, _ []engine.Event, options []engine.Option) int {
	v, ok := view.(*ivanhoe.View)
	if !ok {
		return 0 // not Ivanhoe: any legal option will do
	}
	best, bestValue := -1, -1
	leading := true
	for s := 0; s < v.Players; s++ {
		if s != v.Seat && v.InTournament[s] && v.Total(s) >= v.Total(v.Seat) {
			leading = false
		}
	}
	for i, o := range options {
		value := -1
		switch ivanhoe.OptionKind(o.Kind) {
		case ivanhoe.ChooseColour:
			value = colourCount(v, ivanhoe.Colour(o.A))
		case ivanhoe.PlayCard:
			if !leading {
				value = 10 + ivanhoe.Card(o.A).Value()
			}
		case ivanhoe.EndTurn:
			value = 5
		}
		if value > bestValue {
			best, bestValue = i, value
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

// colourCount is how many cards of colour c the hand holds.
func colourCount(v *ivanhoe.View, c ivanhoe.Colour) int {
	n := 0
	for card := ivanhoe.Card(0); card < ivanhoe.NumCards; card++ {
		if card.Colour() == c {
			n += int(v.Hand[card])
		}
	}
	return n
}

func main() { protocol.Serve(engine.PolicyFunc(choose)) }
