package kardinal

import "github.com/arena-games/arena/engine"

// Resample is the no-leak tests' resample, for the wire-level test (an external test:
// it needs the protocol, which imports this package).
func Resample(g engine.Game, seat int, r *engine.Rand) engine.Game {
	return resample(g.(*Game), seat, r)
}
