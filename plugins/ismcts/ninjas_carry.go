package ismcts

// Keeping a belief through the decisions that broke it (Config.Carry). A belief
// (ninjas_belief.go) lives only from one inferring decision to the next, and two
// kinds of decision broke it. One with none of the other seats' moves since (the
// seat's second decision of a turn, say) did not infer, as a replay of the seat's
// own moves says nothing new of the others' cards; but the hands believed there are
// the next decision's past, so with Carry it replays them, each kept replay handing
// its hands on. And one whose believed pasts keep no replay (the other seat made a
// move the believed hands make unlikely, its random share, or one they cannot
// make) gave up inference for the decision; with Carry its later tries sample
// their pasts afresh, as without a belief, so that the moves since still count and
// a belief grows again from those replays.

// carries reports whether the decision of decisions replays for the belief alone:
// Config.Carry, and hands held from the last searched decision (gathered there, or
// already taken up when this decision was started once before).
func (s *Search) carries(decisions int) bool {
	if s.cfg.Carry <= 0 || s.cfg.Belief <= 0 {
		return false
	}
	if s.belief.at == decisions && decisions > 0 {
		return len(s.belief.held) > 0
	}
	return len(s.belief.next) > 0
}

// freshPast reports whether this try samples its past afresh although a belief is
// held: with Carry, once half the tries a decision gives up after have kept nothing.
func (s *Search) freshPast() bool {
	return s.cfg.Carry > 0 && s.kept == 0 && s.tried > inferGiveUp/2
}
