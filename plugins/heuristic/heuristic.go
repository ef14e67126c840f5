// Package heuristic is the reference bot that plays every game of the arena by rules of
// thumb: a baseline that must clearly beat random play, and an opponent for bot authors
// to measure themselves against. Each game's rules of thumb are in a file of its own;
// New dispatches on the type of the view.
package heuristic

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

type policy struct {
	ivanhoe, kardinal, ninjas engine.Policy
}

// New returns the heuristic bot for every game. It keeps no state between decisions, so
// one value serves any number of concurrent matches.
func New() engine.Policy {
	return &policy{ivanhoe: Ivanhoe(), kardinal: Kardinal(), ninjas: Ninjas()}
}

func (p *policy) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	switch view.(type) {
	case *ivanhoe.View:
		return p.ivanhoe.Choose(view, events, options)
	case *kardinal.View:
		return p.kardinal.Choose(view, events, options)
	case *ninjas.View:
		return p.ninjas.Choose(view, events, options)
	}
	return 0
}
