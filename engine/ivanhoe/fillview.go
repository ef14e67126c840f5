package ivanhoe

// FillView writes seat's view into v, reusing v's slices: search bots look at many
// views in play-outs and keep none. The view is overwritten by the next call.
func (g *Game) FillView(v *View, seat int) {
	hs, ds, in, tk := v.HandSizes[:0], v.Displays, v.InTournament[:0], v.Tokens[:0]
	*v = View{
		Seat: seat, Players: g.players, Phase: g.phase, ToMove: g.ToMove(),
		Shield: g.shield, Stunned: g.stunned, Colour: g.colour, LastFinalPurple: g.lastPurple,
		Starter: g.starter, DrawPile: g.drawN, Discard: g.discard, Pending: g.pending, PendingBy: -1,
		Tournaments: g.tournaments, TokensToWin: g.tokensToWin(),
	}
	if seat >= 0 && seat < g.players {
		v.Hand = g.hands[seat]
	}
	for len(ds) < g.players {
		ds = append(ds, make([]Card, 0, 16)) // never nil, as View's
	}
	ds = ds[:g.players]
	for s := 0; s < g.players; s++ {
		hs = append(hs, g.handSize[s])
		ds[s] = append(ds[s][:0], g.disp[s].slice()...)
		in = append(in, g.in[s])
		tk = append(tk, g.tokens[s])
	}
	v.HandSizes, v.Displays, v.InTournament, v.Tokens = hs, ds, in, tk
	if g.phase == PhaseTurn || g.phase == PhaseReaction || g.phase == PhaseAdapt {
		v.PlayedThisTurn, v.AddedThisTurn = g.played, g.added
	}
	if g.pending != NoCard {
		v.PendingBy, v.PendingArgs = g.pendingBy, g.pendArgs
	}
}
