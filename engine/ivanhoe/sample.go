package ivanhoe

import (
	"errors"
	"fmt"

	"github.com/arena-games/arena/engine"
)

// Sampler is Ivanhoe's engine.Sampler. The distribution: every card the seat has not
// seen (not in its hand, a display, the discard pile, in front of a player or pending)
// is equally likely to be anywhere hidden, except where the seat's events prove where a
// card is. They prove that
//   - a seat that could not start (R7) held exactly the hand it showed, less what it has
//     played since;
//   - a card taken from the seat by Knock Down (R20) is in the taker's hand until played,
//     and a card Retreat took back to a hand is there until played;
//
// Being asked about Ivanhoe proves nothing: every player still in the tournament is
// asked, holder or not (R23a).
//
// Deals that would leave the seat to move without a legal option are rejected (a
// starter who named a colour holds a card to open with, R6 and R8), so the deal is
// uniform among those that remain. A Knock Down between two other seats makes the seat forget what it knew of the
// victim's hand. The sample's log is the seat's events; its decision count is their
// number (it only bounds the game, R27); its random future is drawn from r.
func Sampler() engine.Sampler { return sampler{} }

type sampler struct{}

// knowledge is what one seat's events prove about the other hands.
type knowledge struct {
	known  [MaxPlayers][NumCards]uint8
	dealer int
}

func (k *knowledge) read(me, players int, events []engine.Event) error {
	*k = knowledge{dealer: -1}
	revealing := -1
	for _, e := range events {
		s, a := int(e.Seat), int(e.A)
		if e.Seat >= 0 && s >= players || e.Kind == uint8(EvRevealHand) && (a < 0 || a >= int(NumCards)) {
			return fmt.Errorf("ivanhoe sample: event %+v out of range", e)
		}
		if e.Kind != uint8(EvRevealHand) {
			revealing = -1
		}
		switch EventKind(e.Kind) {
		case EvDeal:
			if k.dealer < 0 {
				k.dealer = (s + players - 1) % players
			}
		case EvRevealHand:
			if revealing != s {
				k.known[s] = [NumCards]uint8{}
				revealing = s
			}
			k.known[s][a] = uint8(e.B)
		case EvPlay, EvAction:
			k.forget(s, a)
		case EvCancel:
			k.forget(s, int(Ivanhoe))
		case EvToHand:
			k.learn(s, a)
		case EvKnockDown:
			if me != s && me != int(e.B) {
				k.known[e.B] = [NumCards]uint8{}
			}
		case EvKnockDownCard:
			if me == int(e.B) {
				k.learn(s, a)
			} else {
				k.forget(int(e.B), a)
			}
		}
	}
	return nil
}

func (k *knowledge) learn(s, c int) {
	if c >= 0 && c < int(NumCards) && s >= 0 && s < MaxPlayers {
		k.known[s][c]++
	}
}

func (k *knowledge) forget(s, c int) {
	if c >= 0 && c < int(NumCards) && s >= 0 && s < MaxPlayers && k.known[s][c] > 0 {
		k.known[s][c]--
	}
}

// Sample builds a state from v (an *ivanhoe.View) and the seat's events.
func (sampler) Sample(dst engine.Game, view engine.View, events []engine.Event, r *engine.Rand) (engine.Game, error) {
	v, ok := view.(*View)
	if !ok {
		return nil, fmt.Errorf("ivanhoe sample: a %T is not an Ivanhoe view", view)
	}
	if err := checkView(v); err != nil {
		return nil, err
	}
	g, _ := dst.(*Game)
	if g == nil {
		g = &Game{}
	}
	var k knowledge
	if err := k.read(v.Seat, v.Players, events); err != nil {
		return nil, err
	}
	g.public(v, &k, events, r)
	// Rejection keeps the deal uniform among those in which the seat to move has a
	// legal option: a starter who named a colour holds a card to open with (R6, R8).
	for try := 0; try < maxDeals; try++ {
		if err := g.dealHidden(v, &k, r); err != nil {
			return nil, err
		}
		if g.toMove == v.Seat || len(g.Options()) > 0 {
			return g, nil
		}
	}
	return nil, fmt.Errorf("ivanhoe sample: no deal in %d gives seat %d a legal option", maxDeals, g.toMove)
}

// maxDeals bounds the rejection of deals that leave the seat to move without an option;
// a starter misses a card to open with in well under one deal in ten.
const maxDeals = 1000

func checkView(v *View) error {
	n := v.Players
	switch {
	case n < MinPlayers || n > MaxPlayers || v.Seat < 0 || v.Seat >= n:
		return fmt.Errorf("ivanhoe sample: seat %d of %d players", v.Seat, n)
	case len(v.HandSizes) != n || len(v.Displays) != n || len(v.InTournament) != n || len(v.Tokens) != n:
		return errors.New("ivanhoe sample: the view's tables do not match its players")
	case v.Phase == PhaseOver || v.ToMove < 0 || v.ToMove >= n:
		return errors.New("ivanhoe sample: the game is over")
	case v.DrawPile < 0 || v.DrawPile > DeckSize:
		return fmt.Errorf("ivanhoe sample: draw pile of %d", v.DrawPile)
	}
	for s := 0; s < n; s++ {
		if len(v.Displays[s]) > maxDisplay || v.HandSizes[s] < 0 || v.HandSizes[s] > DeckSize {
			return fmt.Errorf("ivanhoe sample: seat %d's display or hand is out of range", s)
		}
		for _, c := range v.Displays[s] {
			if c >= NumCards {
				return fmt.Errorf("ivanhoe sample: card %d in a display", c)
			}
		}
	}
	return nil
}

// public copies everything the view shows into g and derives what the seat's events
// tell of the rest of the public state.
func (g *Game) public(v *View, k *knowledge, events []engine.Event, r *engine.Rand) {
	opts, log := g.opts[:0], g.log[:0]
	*g = Game{players: v.Players, rnd: engine.NewRand(r.Uint64()), opts: opts, log: append(log, events...)}
	g.phase, g.toMove, g.dealer, g.starter = v.Phase, v.ToMove, max(k.dealer, 0), v.Starter
	g.colour, g.lastPurple, g.tournaments = v.Colour, v.LastFinalPurple, v.Tournaments
	g.shield, g.stunned, g.winner = v.Shield, v.Stunned, engine.NoSeat
	g.played, g.added = v.PlayedThisTurn, v.AddedThisTurn
	g.pending, g.pendingBy, g.pendArgs = v.Pending, v.PendingBy, v.PendingArgs
	g.discard = v.Discard
	g.decisions = len(events)
	for c := range g.pool {
		g.pool[c] = 5
	}
	for s := 0; s < v.Players; s++ {
		for _, c := range v.Displays[s] {
			g.disp[s].push(c)
		}
		g.in[s], g.entered[s], g.tokens[s] = v.InTournament[s], len(v.Displays[s]) > 0, v.Tokens[s]
		for col, has := range v.Tokens[s] {
			if has {
				g.pool[col]--
			}
		}
	}
	for _, n := range g.discard {
		g.discardN += int(n)
	}
	g.turn = g.toMove
	switch g.phase {
	case PhaseReaction:
		g.turn = g.pendingBy
	case PhaseAdapt:
		g.turn = lastAdapter(events)
		g.adaptValue = g.duplicateValue(g.toMove)
	case PhaseTurn:
		g.first = g.toMove == g.starter && !playedSinceColour(events)
	}
}

// lastAdapter is the seat that played the last Adapt.
func lastAdapter(events []engine.Event) int {
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i]; e.Kind == uint8(EvAction) && Card(e.A) == Adapt {
			return int(e.Seat)
		}
	}
	return 0
}

// playedSinceColour reports a card played into a display since the colour was named:
// the starter's first card (R8) is behind it.
func playedSinceColour(events []engine.Event) bool {
	for i := len(events) - 1; i >= 0; i-- {
		switch EventKind(events[i].Kind) {
		case EvPlay:
			return true
		case EvColour:
			return false
		}
	}
	return true
}

// dealHidden fills the other hands and the draw pile from the cards the seat has not
// seen, the proven cards first.
func (g *Game) dealHidden(v *View, k *knowledge, r *engine.Rand) error {
	var counts [NumCards]uint8
	pool := engine.Pool{Count: counts[:]}
	for c := Card(0); c < NumCards; c++ {
		counts[c] = uint8(c.Count())
		pool.N += c.Count()
	}
	seen := func(c Card, n int) error { return pool.Take(int(c), n) }
	for c := Card(0); c < NumCards; c++ {
		if err := seen(c, int(v.Hand[c])+int(v.Discard[c])); err != nil {
			return err
		}
	}
	for s := 0; s < v.Players; s++ {
		for _, c := range v.Displays[s] {
			if err := seen(c, 1); err != nil {
				return err
			}
		}
	}
	for _, c := range [...]Card{Shield, Stunned} {
		if g.faceUpHolder(c) != engine.NoSeat {
			if err := seen(c, 1); err != nil {
				return err
			}
		}
	}
	if v.Pending != NoCard {
		if v.Pending >= NumCards {
			return fmt.Errorf("ivanhoe sample: pending card %d", v.Pending)
		}
		if err := seen(v.Pending, 1); err != nil {
			return err
		}
	}
	g.drawN, g.optsValid = 0, false
	g.hands[v.Seat], g.handSize[v.Seat] = v.Hand, v.HandSizes[v.Seat]
	for s := 0; s < v.Players; s++ {
		if s == v.Seat {
			continue
		}
		n := 0
		for c := Card(0); c < NumCards; c++ {
			if err := pool.Take(int(c), int(k.known[s][c])); err != nil {
				return err
			}
			n += int(k.known[s][c])
		}
		if n > v.HandSizes[s] {
			return fmt.Errorf("ivanhoe sample: seat %d holds %d cards, %d of them known", s, v.HandSizes[s], n)
		}
		g.hands[s], g.handSize[s] = k.known[s], v.HandSizes[s]
	}
	for s := 0; s < v.Players; s++ {
		if s == v.Seat {
			continue
		}
		for g.handTotal(s) < v.HandSizes[s] {
			c := pool.Draw(r)
			if c < 0 {
				return errors.New("ivanhoe sample: fewer unseen cards than hidden places")
			}
			g.hands[s][c]++
		}
	}
	if pool.N != v.DrawPile {
		return fmt.Errorf("ivanhoe sample: %d unseen cards for a draw pile of %d", pool.N, v.DrawPile)
	}
	for g.drawN < v.DrawPile {
		g.draw[g.drawN] = Card(pool.Draw(r))
		g.drawN++
	}
	return nil
}

func (g *Game) handTotal(s int) int {
	n := 0
	for _, x := range g.hands[s] {
		n += int(x)
	}
	return n
}

func (g *Game) faceUpHolder(c Card) int {
	if c == Shield {
		return g.shield
	}
	return g.stunned
}
