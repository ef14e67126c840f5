package engine

// Policy chooses one option of a decision from what the deciding seat may know: its
// view, the events it saw since its previous decision, and the legal options. It returns
// an index into options. Reference bots implement it; the protocol's Go SDK serves any
// Policy as a bot process, and the arena can run one in-process for fast experiments.
type Policy interface {
	Choose(view View, events []Event, options []Option) int
}

// PolicyFunc adapts a function to Policy.
type PolicyFunc func(view View, events []Event, options []Option) int

// Choose calls f.
func (f PolicyFunc) Choose(view View, events []Event, options []Option) int {
	return f(view, events, options)
}

// PlayOut plays g to the end in-process, each seat driven by its policy; an index a
// policy returns outside the options is replaced by the game's Fallback. It is the
// reference loop for tests and experiments; the arena adds clocks, processes and
// endings on top.
func PlayOut(g Game, seats []Policy) error {
	cursors := make([]int, g.Players())
	var buf []Event
	for !g.Terminal() {
		s := g.ToMove()
		log := g.Log()
		buf = EventsFor(buf[:0], log, s, cursors[s])
		cursors[s] = len(log)
		opts := g.Options()
		i := seats[s].Choose(g.View(s), buf, opts)
		if i < 0 || i >= len(opts) {
			i = g.Fallback()
		}
		if err := g.Apply(i); err != nil {
			return err
		}
	}
	return nil
}
