package ismcts

import "github.com/arena-games/arena/engine"

// oracle makes bot's ismcts players search the true state of the game being played
// (its hidden cards and the order of its pile) instead of samples of what their seat
// knows: a diagnostic (ISMCTS_MEASURE_ORACLE=1 with TestMeasure) of how much of what
// the search loses to the heuristic is hidden information and how much is the search.
func oracle(bot func(d, seat int) (engine.Policy, error)) func(d, seat int) (engine.Policy, error) {
	truth := &trueState{}
	dealt = func(g engine.Game) { truth.g = g }
	return func(d, seat int) (engine.Policy, error) {
		p, err := bot(d, seat)
		if pl, ok := p.(*Player); ok {
			pl.search.sampler = truth
		}
		return p, err
	}
}

// trueState is a sampler whose every sample is a copy of the game in play.
type trueState struct{ g engine.Game }

func (t *trueState) Sample(_ engine.Game, _ engine.View, _ []engine.Event, _ *engine.Rand) (engine.Game, error) {
	return t.g.Clone(), nil
}
