// Package games is the one place that lists every game of the arena: importing it fills
// the engine registry (engine.Lookup, engine.New, engine.PrepareGame) with each game and
// the options it takes. Engines do not register themselves, so a program plays exactly
// the games it imports here; adding a game is a line below (and its view messages in
// protocol/).
package games

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

func init() {
	engine.Register(ivanhoe.Spec())
	engine.Register(kardinal.Spec())
	engine.RegisterOptions(kardinal.Name, kardinal.OptionSpecs(), kardinal.PrepareOptions)
	engine.Register(ninjas.Spec())
	engine.RegisterOptions("ninjas", ninjas.OptionSpecs(), ninjas.PrepareOptions)
	engine.RegisterSampler("ivanhoe", engine.Always(ivanhoe.Sampler()))
	engine.RegisterSampler(kardinal.Name, engine.Always(kardinal.Sampler())) // the view carries the board
	engine.RegisterSampler("ninjas", ninjas.MakeSampler)
}
