package ivanhoe

import (
	"github.com/arena-games/arena/engine"
)

// Apply plays Options()[i].
func (g *Game) Apply(i int) error {
	opts := g.Options()
	if i < 0 || i >= len(opts) {
		return engine.IllegalIndex(i, len(opts))
	}
	o := opts[i]
	g.optsValid = false
	g.decisions++
	s := g.toMove
	switch OptionKind(o.Kind) {
	case ChooseColour:
		g.colour = Colour(o.A)
		g.emit(EvColour, engine.Everyone, s, int(o.A), 0, 0)
		g.phase, g.played, g.added, g.first = PhaseTurn, 0, 0, true
	case PlayCard:
		c := Card(o.A)
		g.fromHand(s, c)
		g.addToDisplay(s, c)
		g.played++
		g.first = false
		g.emit(EvPlay, engine.Everyone, s, int(c), 0, 0)
	case PlayAction:
		g.playAction(s, Card(o.A), int(o.B), int(o.C), int(o.D))
	case EndTurn:
		g.emit(EvEndTurn, engine.Everyone, s, g.Total(s), 0, 0)
		g.startTurn(g.next(s, true))
	case Withdraw:
		g.withdraw(s)
	case CancelAction:
		g.fromHand(s, Ivanhoe)
		g.toDiscard(Ivanhoe)
		g.toDiscard(g.pending)
		g.emit(EvCancel, engine.Everyone, s, int(g.pending), 0, 0)
		g.pending = NoCard
		g.phase, g.toMove = PhaseTurn, g.turn
	case LetStand:
		g.askIvanhoe(s)
	case KeepCard:
		g.keep(s, int(o.A))
	case GiveBack:
		col := Colour(o.A)
		g.tokens[s][col] = false
		g.pool[col]++
		g.emit(EvGiveBack, engine.Everyone, s, int(col), 0, 0)
		g.afterWithdraw(s)
	case TakeToken:
		g.award(s, Colour(o.A))
	}
	if g.phase != PhaseOver && g.decisions >= MaxDecisions {
		g.adjudicate()
	}
	return nil
}

func (g *Game) addToDisplay(s int, c Card) {
	g.disp[s].push(c)
	g.entered[s] = true
	g.added++
}

// playAction puts an action card on the table and asks the other players still in the
// tournament, before it takes effect, whether to cancel it with Ivanhoe (R23).
func (g *Game) playAction(s int, c Card, target, a, b int) {
	g.fromHand(s, c)
	g.played++
	g.pending, g.pendingBy, g.pendArgs = c, s, [3]int{target, a, b}
	g.emit(EvAction, engine.Everyone, s, int(c), target, a)
	g.askIvanhoe(s)
}

// askIvanhoe asks the next player after seat from, in seat order from the actor's left,
// who is still in the tournament; after the last one the action takes effect (R23a).
// Every such player is asked, holder or not (without the card, letting the action stand
// is the one option): were only the holder asked, who is asked and how long the table
// waits would tell everyone where the card is.
func (g *Game) askIvanhoe(from int) {
	for h := (from + 1) % g.players; h != g.pendingBy; h = (h + 1) % g.players {
		if g.in[h] {
			g.phase, g.toMove = PhaseReaction, h
			return
		}
	}
	g.resolve()
}

// resolve carries out the pending action card and returns the turn to its player, or
// opens the Adapt decisions.
func (g *Game) resolve() {
	c, s := g.pending, g.pendingBy
	t, a, b := g.pendArgs[0], g.pendArgs[1], g.pendArgs[2]
	g.pending = NoCard
	g.phase, g.toMove = PhaseTurn, s
	switch c {
	case Unhorse, ChangeWeapon, DropWeapon:
		g.colour = Colour(a)
		g.emit(EvColourChange, engine.Everyone, s, a, 0, 0)
	case BreakLance:
		g.discardMatching(t, isPurple)
	case Riposte:
		d := &g.disp[t]
		x := d.remove(int(d.n) - 1)
		g.addToDisplay(s, x)
		g.emit(EvMoveCard, engine.Everyone, t, int(x), s, 0)
	case Dodge:
		x := g.disp[t].remove(a)
		g.toDiscard(x)
		g.emit(EvDiscardFrom, engine.Everyone, t, int(x), 0, 0)
	case Retreat:
		x := g.disp[s].remove(a)
		g.toHand(s, x)
		g.emit(EvToHand, engine.Everyone, s, int(x), 0, 0)
	case KnockDown:
		x := g.randomCard(t)
		g.fromHand(t, x)
		g.toHand(s, x)
		g.emit(EvKnockDown, engine.Everyone, s, 0, t, 0)
		g.emit(EvKnockDownCard, engine.Only(s, t), s, int(x), t, 0)
	case Outmaneuver:
		for u := 0; u < g.players; u++ {
			if d := &g.disp[u]; u != s && g.exposed(u) && d.n >= 2 {
				x := d.remove(int(d.n) - 1)
				g.toDiscard(x)
				g.emit(EvDiscardFrom, engine.Everyone, u, int(x), 0, 0)
			}
		}
	case Charge, Countercharge:
		v := g.extremeValue(s, c == Countercharge)
		g.discardAll(s, func(x Card) bool { return x.Value() == v })
	case Disgrace:
		g.discardAll(s, Card.IsSupporter)
	case Adapt:
		g.adaptFrom(s)
	case Outwit:
		g.swap(s, t, a, b)
	case Shield:
		g.shield = s
		return
	case Stunned:
		g.stunned = t
		return
	}
	g.toDiscard(c)
}

// discardAll applies a discard to every display the actor's card affects.
func (g *Game) discardAll(actor int, match func(Card) bool) {
	for u := 0; u < g.players; u++ {
		if g.affected(actor, u) {
			g.discardMatching(u, match)
		}
	}
}

// discardMatching discards every card of u's display that matches, except that the
// earliest card stays when all would go (R11).
func (g *Game) discardMatching(u int, match func(Card) bool) {
	d := &g.disp[u]
	keep := 0
	for _, c := range d.slice() {
		if !match(c) {
			keep++
		}
	}
	for i := 0; i < int(d.n); {
		if match(d.cards[i]) && !(keep == 0 && i == 0) {
			x := d.remove(i)
			g.toDiscard(x)
			g.emit(EvDiscardFrom, engine.Everyone, u, int(x), 0, 0)
			continue
		}
		i++
	}
}

// randomCard picks a uniformly random card of s's hand with the game's source (R20).
func (g *Game) randomCard(s int) Card {
	k := g.rnd.Intn(g.handSize[s])
	for c := Card(0); c < NumCards; c++ {
		if k < int(g.hands[s][c]) {
			return c
		}
		k -= int(g.hands[s][c])
	}
	return NoCard
}

// adaptFrom asks, in seat order from the actor, each affected player with two cards of a
// value which one to keep, lowest value first (R21); with nothing left to ask, the turn
// goes back to the actor.
func (g *Game) adaptFrom(start int) {
	actor := g.turn
	for off := (start - actor + g.players) % g.players; off < g.players; off++ {
		u := (actor + off) % g.players
		if !g.affected(actor, u) {
			continue
		}
		if v := g.duplicateValue(u); v > 0 {
			g.phase, g.toMove, g.adaptValue = PhaseAdapt, u, v
			return
		}
	}
	g.phase, g.toMove = PhaseTurn, actor
}

// keep applies one Adapt choice: the card at pos stays, the others of its value go.
func (g *Game) keep(u, pos int) {
	d := &g.disp[u]
	kept := d.cards[pos]
	g.emit(EvKeep, engine.Everyone, u, int(kept), 0, 0)
	for i := int(d.n) - 1; i >= 0; i-- {
		if i != pos && d.cards[i].Value() == g.adaptValue {
			x := d.remove(i)
			g.toDiscard(x)
			g.emit(EvDiscardFrom, engine.Everyone, u, int(x), 0, 0)
		}
	}
	g.adaptFrom(u)
}

// swap is Outwit (R22): each side's card leaves its place; a display card arriving goes
// on top of the receiving display.
func (g *Game) swap(s, t, mp, tp int) {
	mc, tc := g.take(s, mp), g.take(t, tp)
	g.place(t, mc)
	g.place(s, tc)
	g.emit(EvSwap, engine.Everyone, s, int(mc), int(tc), t)
}

func (g *Game) take(s, pos int) Card {
	switch pos {
	case FaceShield:
		g.shield = engine.NoSeat
		return Shield
	case FaceStunned:
		g.stunned = engine.NoSeat
		return Stunned
	}
	return g.disp[s].remove(pos)
}

func (g *Game) place(s int, c Card) {
	switch c {
	case Shield:
		g.shield = s
	case Stunned:
		g.stunned = s
	default:
		g.disp[s].push(c)
		g.entered[s] = true
	}
}

// Fallback withdraws when it may and otherwise takes the first option: the cautious
// play for a seat that has forfeited.
func (g *Game) Fallback() int {
	opts := g.Options()
	for i, o := range opts {
		if OptionKind(o.Kind) == Withdraw || OptionKind(o.Kind) == LetStand {
			return i
		}
	}
	return 0
}
