package ismcts

import (
	"reflect"
	"unsafe"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// oracle makes bot's ismcts players search the true state of the game being played
// (its hidden cards and, unless shuffle, the order of its pile) instead of samples of
// what their seat knows, with inference off (the truth needs none): a diagnostic
// (ISMCTS_MEASURE_ORACLE with TestMeasure) of how much of what the search loses to
// the heuristic is hidden information and how much is the search. With share in
// (0, 1) only that share of the samples is the truth, the rest the seat's own
// sampler's: how much a sampler that is partly right is worth.
func oracle(bot func(d, seat int) (engine.Policy, error), shuffle bool, share float64) func(d, seat int) (engine.Policy, error) {
	truth := &trueState{shuffle: shuffle, share: share}
	dealt = func(g engine.Game) { truth.g = g }
	return func(d, seat int) (engine.Policy, error) {
		p, err := bot(d, seat)
		if pl, ok := p.(*Player); ok {
			truth.rest = pl.search.sampler
			pl.search.sampler = truth
			pl.search.cfg.Infer = 0
		}
		return p, err
	}
}

// trueState is a sampler whose every sample is a copy of the game in play, hidden
// hands, pile order and random source included. With shuffle (Ninjas only) it knows
// the hands but not the pile: each sample's draw pile is the true pile's cards in a
// fresh order (set through reflection, the pile being the engine's own; a diagnostic
// only).
type trueState struct {
	g       engine.Game
	shuffle bool
	share   float64        // in (0, 1): the share of samples that are the truth
	rest    engine.Sampler // the others'
}

func (t *trueState) Sample(x engine.Game, view engine.View, events []engine.Event, r *engine.Rand) (engine.Game, error) {
	if t.share > 0 && t.share < 1 && float64(r.Uint64()>>11)/(1<<53) >= t.share {
		return t.rest.Sample(x, view, events, r)
	}
	g := t.g.Clone()
	if t.shuffle {
		shufflePile(g.(*ninjas.Game), r)
	}
	return g, nil
}

// shufflePile puts the cards of g's draw pile in a fresh order.
func shufflePile(g *ninjas.Game, r *engine.Rand) {
	v := reflect.ValueOf(g).Elem()
	n := int(v.FieldByName("pileN").Int())
	f := v.FieldByName("pile")
	pile := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Interface().(*[ninjas.DeckSize]ninjas.Kind)
	for i := n - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		pile[i], pile[j] = pile[j], pile[i]
	}
}
