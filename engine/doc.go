// Package engine is the contract every game of the arena meets, and the registry that
// finds games by name.
//
// A game is a pure, seeded decision machine. At any moment exactly one seat owes a
// decision (ToMove), chosen from a list of legal options (Options) in a deterministic
// order; Apply plays one of them by index. Every choice a rule gives a player, including
// choices made outside that player's turn, is such a decision of exactly that seat, so
// random play, tree search, replays and the wire protocol all drive a game the same way.
//
// What a seat may know is its View plus the events of the log that it is in the audience
// of (Visible). Engines do no I/O, read no clock, start no goroutine and keep no global
// state; their only randomness is the Rand seeded at New.
//
// Games do not register themselves: package games registers every game (its Spec, and
// the Options it takes with RegisterOptions), and a program imports it to find games by
// name. A game's options (a board, a deck) are text, checked and parsed once by
// PrepareGame; NewWith starts one game with them, and Variant names a game with its
// options wherever results must be kept apart.
//
// Start with New:
//
//	g, err := engine.New("ivanhoe", seed, 4)
//	for !g.Terminal() {
//		opts := g.Options()
//		_ = g.Apply(pick(opts))
//	}
//	fmt.Println(g.Result())
package engine
