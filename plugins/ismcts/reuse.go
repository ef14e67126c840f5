package ismcts

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

// Reusing the tree between decisions (Config.Reuse): a decision's tree holds, under
// the option the seat chose, statistics for the decisions that follow. When the next
// decision comes, the search walks from the old root along every decision made since
// (its own, and the other seats' where their events name them) and, if the tree holds
// that line, keeps the subtree found there as the new root instead of starting empty:
// the iterations spent on it before count again. Statistics gathered on samples of an
// older information set are a little stale (a card drawn since is now known); the new
// iterations sample the present one.

// move is one decision of the game: the seat that made it and its option.
type move struct {
	seat int8
	opt  engine.Option
}

// rooted is what the search remembers of where its tree's root stands: the decision
// count and the number of events seen then, and its own moves since.
type rooted struct {
	valid     bool
	decisions int
	events    int
	own       []move
}

// decisionCount is the number of decisions made in the game of view so far, or -1 where
// the view does not tell it.
func decisionCount(view engine.View) int {
	switch v := view.(type) {
	case *kardinal.View:
		return v.Decisions
	case *ninjas.View:
		return v.Decisions
	}
	return -1
}

// playedSince appends to moves every decision made since the root, in order, and
// reports whether it knows them all: where the game's events name every decision
// (Ninjas), read from events since the root; elsewhere only when every decision since
// was the searching seat's own.
func (r *rooted) playedSince(game string, events []engine.Event, decisions int, moves []move) ([]move, bool) {
	moves = moves[:0]
	if !r.valid || decisions < r.decisions || r.events > len(events) {
		return moves, false
	}
	if game == "ninjas" {
		for _, e := range events[r.events:] {
			if o, ok := ninjasOption(e); ok {
				moves = append(moves, move{seat: e.Seat, opt: o})
			}
		}
	} else {
		moves = append(moves, r.own...)
	}
	return moves, len(moves) == decisions-r.decisions
}

// ninjasOption is the option a Ninjas decision event records (every decision emits
// exactly one of these, public), or false for an event that is not a decision.
func ninjasOption(e engine.Event) (engine.Option, bool) {
	const none = ninjas.NoArg
	count, jester := e.C&(ninjas.JesterFlag-1), int16(0)
	if e.C&ninjas.JesterFlag != 0 {
		jester = 1
	}
	o := engine.Option{A: none, B: none, C: none, D: none}
	switch ninjas.EventKind(e.Kind) {
	case ninjas.EvAttack:
		o = engine.Option{Kind: uint8(ninjas.PlayAttack), A: e.A, B: e.B, C: count, D: jester}
	case ninjas.EvFortify:
		o = engine.Option{Kind: uint8(ninjas.PlayFortify), A: e.A, B: none, C: none, D: jester}
	case ninjas.EvDiscard:
		o.Kind, o.A = uint8(ninjas.DiscardCard), e.A
	case ninjas.EvStop:
		o.Kind = uint8(ninjas.StopTurn)
	case ninjas.EvRespond:
		o = engine.Option{Kind: uint8(ninjas.PlayResponse), A: e.A, B: none, C: count, D: jester}
	case ninjas.EvDecline:
		o.Kind = uint8(ninjas.NoResponse)
	case ninjas.EvHighwayman:
		o = engine.Option{Kind: uint8(ninjas.PlayHighwayman), A: int16(ninjas.Highwayman), B: none, C: 1, D: jester}
	case ninjas.EvLetGo:
		o.Kind = uint8(ninjas.LetGemsGo)
	default:
		return o, false
	}
	return o, true
}

// nodePair maps a node of the old tree to its copy in the new one.
type nodePair struct{ from, to int32 }

// follow walks from the root along moves and returns the node reached, or 0 when the
// tree does not hold the whole line.
func (t *tree) follow(moves []move) int32 {
	cur := int32(0)
	for _, m := range moves {
		if cur = t.child(cur, m.opt, m.seat); cur == 0 {
			return 0
		}
	}
	return cur
}

// reroot makes node c the root, keeping its subtree (copied in order into spare,
// which then becomes the tree) and dropping the rest.
func (t *tree) reroot(c int32) {
	t.spare = append(t.spare[:0], node{mover: -1, visits: t.nodes[c].visits})
	stack := append(t.stack[:0], nodePair{c, 0})
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		prev := int32(0)
		for ch := t.nodes[p.from].child; ch != 0; ch = t.nodes[ch].next {
			n := t.nodes[ch]
			n.child, n.next = 0, 0
			t.spare = append(t.spare, n)
			to := int32(len(t.spare) - 1)
			if prev == 0 {
				t.spare[p.to].child = to
			} else {
				t.spare[prev].next = to
			}
			prev = to
			stack = append(stack, nodePair{ch, to})
		}
	}
	t.stack = stack
	t.nodes, t.spare = t.spare, t.nodes
}
