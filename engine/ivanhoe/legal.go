package ivanhoe

import "github.com/arena-games/arena/engine"

// Options lists the legal options of the pending decision (see OptionKind for the
// encoding). The slice is reused: it is valid until the next Apply.
func (g *Game) Options() []engine.Option {
	if g.optsValid {
		return g.opts
	}
	o := g.opts[:0]
	s := g.toMove
	switch g.phase {
	case PhaseChooseColour:
		for col := Colour(0); col < NumColours; col++ {
			if g.colourAllowed(s, col) {
				o = append(o, opt(ChooseColour, int(col), NoArg, NoArg, NoArg))
			}
		}
	case PhaseTurn:
		o = g.turnOptions(o, s)
	case PhaseReaction:
		if g.hands[s][Ivanhoe] > 0 {
			o = append(o, opt(CancelAction, NoArg, NoArg, NoArg, NoArg))
		}
		o = append(o, opt(LetStand, NoArg, NoArg, NoArg, NoArg))
	case PhaseAdapt:
		d := g.disp[s].slice()
		for i, c := range d {
			if c.Value() == g.adaptValue && !(i > 0 && d[i-1] == c) {
				o = append(o, opt(KeepCard, i, NoArg, NoArg, NoArg))
			}
		}
	case PhaseGiveBack:
		for col := Colour(0); col < NumColours; col++ {
			if g.tokens[s][col] {
				o = append(o, opt(GiveBack, int(col), NoArg, NoArg, NoArg))
			}
		}
	case PhaseTakeToken:
		for col := Colour(0); col < NumColours; col++ {
			if !g.tokens[s][col] {
				o = append(o, opt(TakeToken, int(col), NoArg, NoArg, NoArg))
			}
		}
	}
	g.opts, g.optsValid = o, true
	return o
}

func (g *Game) turnOptions(o []engine.Option, s int) []engine.Option {
	h := &g.hands[s]
	canAdd := g.stunned != s || g.added == 0 // R14
	if canAdd {
		maiden := g.disp[s].hasMaiden()
		for c := Card(0); c <= Maiden; c++ {
			if h[c] == 0 || (c.IsColour() && c.Colour() != g.colour) || (c == Maiden && maiden) {
				continue
			}
			o = append(o, opt(PlayCard, int(c), NoArg, NoArg, NoArg))
		}
	}
	if g.first { // R8: the starter's first card is of the colour or a supporter
		return o
	}
	for c := Unhorse; c < Ivanhoe; c++ {
		if h[c] > 0 {
			o = g.actionOptions(o, s, c, canAdd)
		}
	}
	if g.played > 0 && g.leads(s) {
		o = append(o, opt(EndTurn, NoArg, NoArg, NoArg, NoArg))
	}
	return append(o, opt(Withdraw, NoArg, NoArg, NoArg, NoArg))
}

// leads is R3(b): s's total is strictly higher than every other total in the tournament.
func (g *Game) leads(s int) bool {
	mine := g.Total(s)
	for t := 0; t < g.players; t++ {
		if t != s && g.in[t] && g.Total(t) >= mine {
			return false
		}
	}
	return true
}

// exposed reports whether s's display can be affected by an opponent's action card: s
// is in the tournament and holds no Shield (R13).
func (g *Game) exposed(s int) bool { return g.in[s] && g.shield != s }

// affected reports whether an action card of actor's that acts on every display touches
// s: the actor's own display always, an opponent's when exposed (R13, R21).
func (g *Game) affected(actor, s int) bool { return s == actor || g.exposed(s) }

// actionOptions appends the legal uses of action card c (R12: only where it changes
// something).
func (g *Game) actionOptions(o []engine.Option, s int, c Card, canAdd bool) []engine.Option {
	switch c {
	case Unhorse:
		if g.colour == Purple {
			for _, col := range [...]Colour{Red, Blue, Yellow} {
				o = append(o, opt(PlayAction, int(c), NoArg, int(col), NoArg))
			}
		}
	case ChangeWeapon:
		if g.colour == Red || g.colour == Blue || g.colour == Yellow {
			for _, col := range [...]Colour{Red, Blue, Yellow} {
				if col != g.colour {
					o = append(o, opt(PlayAction, int(c), NoArg, int(col), NoArg))
				}
			}
		}
	case DropWeapon:
		if g.colour == Red || g.colour == Blue || g.colour == Yellow {
			o = append(o, opt(PlayAction, int(c), NoArg, int(Green), NoArg))
		}
	case BreakLance:
		for t := 0; t < g.players; t++ {
			if t != s && g.exposed(t) && g.removalChanges(t, isPurple) {
				o = append(o, opt(PlayAction, int(c), t, NoArg, NoArg))
			}
		}
	case Riposte:
		if !canAdd {
			break
		}
		for t := 0; t < g.players; t++ {
			d := &g.disp[t]
			if t != s && g.exposed(t) && d.n >= 2 && !(d.cards[d.n-1] == Maiden && g.disp[s].hasMaiden()) {
				o = append(o, opt(PlayAction, int(c), t, NoArg, NoArg))
			}
		}
	case Dodge:
		for t := 0; t < g.players; t++ {
			if t != s && g.exposed(t) && g.disp[t].n >= 2 {
				o = appendPositions(o, c, t, g.disp[t].slice())
			}
		}
	case Retreat:
		if g.disp[s].n >= 2 {
			o = appendPositions(o, c, NoArg, g.disp[s].slice())
		}
	case KnockDown:
		for t := 0; t < g.players; t++ {
			if t != s && g.handSize[t] > 0 {
				o = append(o, opt(PlayAction, int(c), t, NoArg, NoArg))
			}
		}
	case Outmaneuver:
		for t := 0; t < g.players; t++ {
			if t != s && g.exposed(t) && g.disp[t].n >= 2 {
				o = append(o, opt(PlayAction, int(c), NoArg, NoArg, NoArg))
				break
			}
		}
	case Charge, Countercharge:
		v := g.extremeValue(s, c == Countercharge)
		if v > 0 && g.anyRemovalChanges(s, func(x Card) bool { return x.Value() == v }) {
			o = append(o, opt(PlayAction, int(c), NoArg, NoArg, NoArg))
		}
	case Disgrace:
		if g.anyRemovalChanges(s, Card.IsSupporter) {
			o = append(o, opt(PlayAction, int(c), NoArg, NoArg, NoArg))
		}
	case Adapt:
		for t := 0; t < g.players; t++ {
			if g.affected(s, t) && g.duplicateValue(t) > 0 {
				o = append(o, opt(PlayAction, int(c), NoArg, NoArg, NoArg))
				break
			}
		}
	case Outwit:
		for t := 0; t < g.players; t++ {
			if t != s && g.exposed(t) {
				o = g.outwitOptions(o, s, t)
			}
		}
	case Shield:
		o = append(o, opt(PlayAction, int(c), NoArg, NoArg, NoArg))
	case Stunned:
		for t := 0; t < g.players; t++ {
			if t != s && g.in[t] {
				o = append(o, opt(PlayAction, int(c), t, NoArg, NoArg))
			}
		}
	}
	return o
}

// appendPositions lists one option per display position; neighbours of one kind give
// the same result and are listed once.
func appendPositions(o []engine.Option, c Card, target int, d []Card) []engine.Option {
	for i := range d {
		if i > 0 && d[i-1] == d[i] {
			continue
		}
		o = append(o, opt(PlayAction, int(c), target, i, NoArg))
	}
	return o
}

func isPurple(c Card) bool { return c.Colour() == Purple }

// removalChanges reports whether discarding every card of t's display that match
// removes anything once R11 keeps the earliest card of a display it would empty.
func (g *Game) removalChanges(t int, match func(Card) bool) bool {
	d := g.disp[t].slice()
	hit := 0
	for _, c := range d {
		if match(c) {
			hit++
		}
	}
	return hit > 0 && !(hit == len(d) && len(d) == 1)
}

func (g *Game) anyRemovalChanges(actor int, match func(Card) bool) bool {
	for t := 0; t < g.players; t++ {
		if g.affected(actor, t) && g.removalChanges(t, match) {
			return true
		}
	}
	return false
}

// extremeValue is the lowest (or highest) printed value among the displays actor's
// Charge (Countercharge) can affect, 0 when they are all empty (R21).
func (g *Game) extremeValue(actor int, highest bool) int {
	v := 0
	for t := 0; t < g.players; t++ {
		if !g.affected(actor, t) {
			continue
		}
		for _, c := range g.disp[t].slice() {
			x := c.Value()
			if v == 0 || (highest && x > v) || (!highest && x < v) {
				v = x
			}
		}
	}
	return v
}

// duplicateValue is the lowest printed value held twice in t's display, 0 if none.
func (g *Game) duplicateValue(t int) int {
	var seen [8]bool
	best := 0
	for _, c := range g.disp[t].slice() {
		v := c.Value()
		if seen[v] && (best == 0 || v < best) {
			best = v
		}
		seen[v] = true
	}
	return best
}

// faceUp returns the card a face-up position names for seat s, or NoCard.
func (g *Game) faceUp(s, pos int) Card {
	switch {
	case pos == FaceShield && g.shield == s:
		return Shield
	case pos == FaceStunned && g.stunned == s:
		return Stunned
	case pos >= 0 && pos < int(g.disp[s].n):
		return g.disp[s].cards[pos]
	}
	return NoCard
}

var facePositions = [...]int{FaceShield, FaceStunned}

// outwitOptions lists the swaps of R22 between s and the unshielded opponent t.
func (g *Game) outwitOptions(o []engine.Option, s, t int) []engine.Option {
	mine, theirs := g.disp[s].slice(), g.disp[t].slice()
	for mi := -len(facePositions); mi < len(mine); mi++ {
		mp := g.position(mine, mi)
		if mp == skip {
			continue
		}
		mc := g.faceUp(s, mp)
		if mc == NoCard {
			continue
		}
		for ti := -len(facePositions); ti < len(theirs); ti++ {
			tp := g.position(theirs, ti)
			if tp == skip {
				continue
			}
			tc := g.faceUp(t, tp)
			if tc == NoCard || !g.swapLegal(s, t, mp, tp, mc, tc) {
				continue
			}
			o = append(o, opt(PlayAction, int(Outwit), t, mp, tp))
		}
	}
	return o
}

const skip = -100

// position maps a loop index to a face-up position: negative indices name the Shield
// and Stunned slots; a display position next to one of the same kind is skipped.
func (g *Game) position(d []Card, i int) int {
	if i < 0 {
		return facePositions[-i-1]
	}
	if i > 0 && d[i-1] == d[i] {
		return skip
	}
	return i
}

// swapLegal checks R22: no display left empty, no two maidens, and a change at all.
func (g *Game) swapLegal(s, t, mp, tp int, mc, tc Card) bool {
	ds, dt := &g.disp[s], &g.disp[t]
	if mp >= 0 && tp < 0 && ds.n < 2 {
		return false
	}
	if tp >= 0 && mp < 0 && dt.n < 2 {
		return false
	}
	if tc == Maiden && maidenElsewhere(ds, mp) {
		return false
	}
	if mc == Maiden && maidenElsewhere(dt, tp) {
		return false
	}
	// Equal cards whose runs both reach the top change nothing (R12): each display loses
	// a card of the run and gets the same kind back on top. Shield and Stunned have one
	// holder each, so two face-up cards of one kind are always display cards.
	return mc != tc || !runToTop(ds, mp) || !runToTop(dt, tp)
}

// runToTop reports whether every card of d from position pos to the top is d's card at
// pos: then taking that card and putting its kind back on top leaves d as it was.
func runToTop(d *display, pos int) bool {
	for i := pos + 1; i < int(d.n); i++ {
		if d.cards[i] != d.cards[pos] {
			return false
		}
	}
	return true
}

// maidenElsewhere reports a maiden in d other than at position except.
func maidenElsewhere(d *display, except int) bool {
	for i, c := range d.slice() {
		if c == Maiden && i != except {
			return true
		}
	}
	return false
}
