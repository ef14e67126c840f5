package watch

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
)

// Record plays a game in process, each seat by its policy, and keeps it as a replay
// with the bots' names, as `arena match` would have written it (without clocks): for
// games played outside a match, and for tests of what a replay shows.
func Record(game string, seed uint64, opts engine.Options, bots []string, seats []engine.Policy) (*arena.Replay, error) {
	g, err := engine.NewWith(game, seed, len(seats), opts)
	if err != nil {
		return nil, err
	}
	if len(bots) != len(seats) {
		return nil, fmt.Errorf("%d bot names for %d seats", len(bots), len(seats))
	}
	rep := &arena.Replay{Header: arena.Record{Type: "match", Format: arena.ReplayFormat, Match: "in-process",
		Game: game, Options: opts, Seed: seed, Players: len(seats), Bots: bots}}
	cursors := make([]int, len(seats))
	for !g.Terminal() {
		s := g.ToMove()
		log := g.Log()
		evs := engine.EventsFor(nil, log, s, cursors[s])
		cursors[s] = len(log)
		opts := g.Options()
		i := seats[s].Choose(g.View(s), evs, opts)
		if i < 0 || i >= len(opts) {
			i = g.Fallback()
		}
		o := opts[i]
		rep.Decisions = append(rep.Decisions, arena.Record{Type: "decision", N: g.Decisions(), Seat: s, Choice: i,
			Option: &arena.OptionJSON{Kind: o.Kind, A: o.A, B: o.B, C: o.C, D: o.D}, Text: g.Describe(o)})
		if err := g.Apply(i); err != nil {
			return nil, err
		}
	}
	res := g.Result()
	rep.Result = &arena.Record{Type: "result", N: g.Decisions(), Place: res.Place, GamePlace: res.Place, Score: res.Score,
		Adjudicated: res.Adjudicated, Hash: fmt.Sprintf("%016x", g.Hash())}
	return rep, nil
}

// WriteReplay writes rep as a replay file: its header, decisions, endings and result,
// one JSON record a line, as arena.ReadReplay reads them.
func WriteReplay(w io.Writer, rep *arena.Replay) error {
	enc := json.NewEncoder(w)
	recs := append([]arena.Record{rep.Header}, rep.Decisions...)
	recs = append(recs, rep.Endings...)
	if rep.Result != nil {
		recs = append(recs, *rep.Result)
	}
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}
