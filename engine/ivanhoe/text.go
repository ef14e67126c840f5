package ivanhoe

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/engine"
)

// The words of options are built without fmt: a replay puts every decision into words
// while the game is played.
func seatName(s int) string { return "seat " + strconv.Itoa(s) }

// Describe puts an option into words, for logs and people choosing by hand.
func (g *Game) Describe(o engine.Option) string {
	switch OptionKind(o.Kind) {
	case ChooseColour:
		return "start a " + Colour(o.A).String() + " tournament"
	case PlayCard:
		return "play " + Card(o.A).String()
	case PlayAction:
		return g.describeAction(Card(o.A), int(o.B), int(o.C), int(o.D))
	case EndTurn:
		return "end the turn announcing " + strconv.Itoa(g.Total(g.toMove))
	case Withdraw:
		return "withdraw"
	case CancelAction:
		return "play Ivanhoe to cancel " + g.pending.String()
	case LetStand:
		return "let " + g.pending.String() + " stand"
	case KeepCard:
		return "keep " + g.faceUp(g.toMove, int(o.A)).String() + " (display position " + strconv.Itoa(int(o.A)) + ")"
	case GiveBack:
		return "give back the " + Colour(o.A).String() + " token"
	case TakeToken:
		return "take a " + Colour(o.A).String() + " token"
	}
	return fmt.Sprintf("unknown option %+v", o)
}

func (g *Game) describeAction(c Card, t, a, b int) string {
	s := g.toMove
	switch c {
	case Unhorse, ChangeWeapon, DropWeapon:
		return c.String() + ": the tournament becomes " + Colour(a).String()
	case BreakLance, KnockDown, Riposte:
		return c.String() + " on " + seatName(t)
	case Stunned:
		return "Stunned on " + seatName(t)
	case Dodge:
		return "Dodge: discard " + g.faceUp(t, a).String() + " from " + seatName(t) + "'s display"
	case Retreat:
		return "Retreat: take " + g.faceUp(s, a).String() + " back into the hand"
	case Outwit:
		return "Outwit: give " + g.faceUp(s, a).String() + " to " + seatName(t) + " for their " + g.faceUp(t, b).String()
	}
	return c.String()
}

// DescribeEvent puts an event into words: together they are the game's readable log.
func (g *Game) DescribeEvent(e engine.Event) string {
	who := seatName(int(e.Seat))
	switch EventKind(e.Kind) {
	case EvDeal:
		return fmt.Sprintf("%s is dealt %d cards", who, e.A)
	case EvDraw:
		return who + " draws a card"
	case EvDrawCard:
		return fmt.Sprintf("%s draws %s", who, Card(e.A))
	case EvReshuffle:
		return fmt.Sprintf("the discard pile is shuffled into a new draw pile of %d cards", e.A)
	case EvStarter:
		return fmt.Sprintf("--- tournament %d: %s is to start", e.A, who)
	case EvRevealHand:
		return fmt.Sprintf("%s cannot start and shows %d× %s", who, e.B, Card(e.A))
	case EvColour:
		return fmt.Sprintf("%s chooses %s", who, Colour(e.A))
	case EvPlay:
		return fmt.Sprintf("%s plays %s", who, Card(e.A))
	case EvAction:
		if e.B >= 0 {
			return fmt.Sprintf("%s plays %s on %s", who, Card(e.A), seatName(int(e.B)))
		}
		return fmt.Sprintf("%s plays %s", who, Card(e.A))
	case EvCancel:
		return fmt.Sprintf("%s plays Ivanhoe and cancels %s", who, Card(e.A))
	case EvColourChange:
		return fmt.Sprintf("the tournament colour becomes %s", Colour(e.A))
	case EvDiscardFrom:
		return fmt.Sprintf("%s discards %s from the display", who, Card(e.A))
	case EvMoveCard:
		return fmt.Sprintf("%s moves from %s's display to %s's", Card(e.A), who, seatName(int(e.B)))
	case EvToHand:
		return fmt.Sprintf("%s takes %s back into the hand", who, Card(e.A))
	case EvKnockDown:
		return fmt.Sprintf("%s takes a card from %s's hand", who, seatName(int(e.B)))
	case EvKnockDownCard:
		return fmt.Sprintf("%s takes %s from %s's hand", who, Card(e.A), seatName(int(e.B)))
	case EvSwap:
		return fmt.Sprintf("%s swaps %s for %s's %s", who, Card(e.A), seatName(int(e.C)), Card(e.B))
	case EvKeep:
		return fmt.Sprintf("%s keeps %s", who, Card(e.A))
	case EvEndTurn:
		return fmt.Sprintf("%s announces %d", who, e.A)
	case EvWithdraw:
		return who + " withdraws"
	case EvGiveBack:
		return fmt.Sprintf("%s gives back the %s token", who, Colour(e.A))
	case EvWinTournament:
		return fmt.Sprintf("%s wins the %s tournament", who, Colour(e.A))
	case EvToken:
		return fmt.Sprintf("%s takes a %s token", who, Colour(e.A))
	case EvNoToken:
		return fmt.Sprintf("%s already holds a %s token and takes none", who, Colour(e.A))
	case EvWinGame:
		return who + " wins the game"
	case EvAdjudicated:
		return fmt.Sprintf("the game is adjudicated after %d decisions", e.A)
	}
	return fmt.Sprintf("unknown event %+v", e)
}

// View is what seat may know now (see View).
func (g *Game) View(seat int) engine.View { return g.ViewOf(seat) }

// ViewOf is View with its concrete type.
func (g *Game) ViewOf(seat int) *View {
	v := &View{
		Seat: seat, Players: g.players, Phase: g.phase, ToMove: g.ToMove(),
		HandSizes: make([]int, g.players), Displays: make([][]Card, g.players),
		Shield: g.shield, Stunned: g.stunned, InTournament: make([]bool, g.players),
		Tokens: make([][NumColours]bool, g.players), Colour: g.colour, LastFinalPurple: g.lastPurple,
		Starter: g.starter, DrawPile: g.drawN, Discard: g.discard, Pending: g.pending, PendingBy: engine.NoSeat,
		Tournaments: g.tournaments, TokensToWin: g.tokensToWin(),
	}
	if seat >= 0 && seat < g.players {
		v.Hand = g.hands[seat]
	}
	for s := 0; s < g.players; s++ {
		v.HandSizes[s] = g.handSize[s]
		v.Displays[s] = append([]Card{}, g.disp[s].slice()...)
		v.InTournament[s] = g.in[s]
		v.Tokens[s] = g.tokens[s]
	}
	if g.phase == PhaseTurn || g.phase == PhaseReaction || g.phase == PhaseAdapt {
		v.PlayedThisTurn, v.AddedThisTurn = g.played, g.added
	}
	if g.pending != NoCard {
		v.PendingBy, v.PendingArgs = g.pendingBy, g.pendArgs
	}
	return v
}

// Hash digests the whole state, hidden parts and the random source included.
func (g *Game) Hash() uint64 {
	h := engine.NewHasher()
	h.Int(g.players)
	g.rnd.Hash(&h)
	for _, v := range []int{int(g.phase), g.toMove, g.dealer, g.starter, g.turn, int(g.colour), g.tournaments,
		g.shield, g.stunned, g.drawN, g.discardN, g.played, g.added, int(g.pending), g.pendingBy,
		g.pendArgs[0], g.pendArgs[1], g.pendArgs[2], g.adaptValue, g.winner, g.decisions} {
		h.Int(v)
	}
	for _, b := range []bool{g.lastPurple, g.first, g.adjudicated} {
		h.Bool(b)
	}
	for s := 0; s < g.players; s++ {
		h.Bytes(g.hands[s][:])
		h.Int(g.handSize[s])
		h.Bytes(cardsAsBytes(g.disp[s].slice()))
		h.Bool(g.in[s])
		h.Bool(g.entered[s])
		for _, t := range g.tokens[s] {
			h.Bool(t)
		}
	}
	h.Bytes(cardsAsBytes(g.draw[:g.drawN]))
	h.Bytes(g.discard[:])
	return h.Sum()
}

func cardsAsBytes(c []Card) []uint8 {
	b := make([]uint8, len(c))
	for i, x := range c {
		b[i] = uint8(x)
	}
	return b
}
