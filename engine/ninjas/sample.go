package ninjas

import (
	"errors"
	"fmt"

	"github.com/arena-games/arena/engine"
)

// Sampler is Of Knights and Ninjas' engine.Sampler for the default deck; NewSampler
// makes one for another deck (a view does not name its deck), and MakeSampler one for
// the deck option. The distribution: every
// card the seat has not seen (not in its hand, the discard pile, a fortification, the
// pending attack or a standing Ladder) is equally likely to be in any other hand or
// anywhere in the draw pile, except the attack cards a Princess took into a hand
// (public, N9): those are in that hand until a card of their kind leaves it. Deals that
// leave the seat to move without a legal option are rejected. The sample's log is the
// seat's events and its random future is drawn from r.
func Sampler() engine.Sampler { return NewSampler(DefaultDeck()) }

// MakeSampler is the game's engine.MakeSampler: the sampler of the deck option.
func MakeSampler(opts engine.Options) (engine.Sampler, error) {
	text, ok := opts[OptionDeck]
	if !ok {
		return Sampler(), nil
	}
	deck, err := ParseDeck(text)
	if err != nil {
		return nil, err
	}
	return NewSampler(deck), nil
}

// NewSampler is the sampler for games played with deck.
func NewSampler(deck Deck) engine.Sampler { return sampler{deck: deck} }

type sampler struct{ deck Deck }

// maxDeals bounds the rejection of deals that leave the seat to move without an option.
const maxDeals = 1000

// Sample builds a state from v (a *ninjas.View) and the seat's events.
func (sp sampler) Sample(dst engine.Game, view engine.View, events []engine.Event, r *engine.Rand) (engine.Game, error) {
	v, ok := view.(*View)
	if !ok {
		return nil, fmt.Errorf("ninjas sample: a %T is not a Ninjas view", view)
	}
	n := v.Players
	switch {
	case n < MinPlayers || n > MaxPlayers || v.Seat < 0 || v.Seat >= n:
		return nil, fmt.Errorf("ninjas sample: seat %d of %d players", v.Seat, n)
	case v.Phase == PhaseOver || v.ToMove < 0 || v.ToMove >= n:
		return nil, errors.New("ninjas sample: the game is over")
	case v.DrawPile < 0 || v.DrawPile > DeckSize || v.Pending.Count < 0 || v.Pending.Count > DeckSize:
		return nil, errors.New("ninjas sample: a pile or a pending attack out of range")
	}
	known, err := princessCards(v.Seat, n, events)
	if err != nil {
		return nil, err
	}
	g, _ := dst.(*Game)
	if g == nil {
		g = &Game{opts: make([]engine.Option, 0, 256), log: make([]engine.Event, 0, len(events)+1024)}
	}
	if err := g.public(sp.deck, v, events, r); err != nil {
		return nil, err
	}
	for try := 0; try < maxDeals; try++ {
		if err := g.dealHidden(v, &known, r); err != nil {
			return nil, err
		}
		g.listOptions()
		if v.ToMove == v.Seat || len(g.opts) > 0 {
			return g, nil
		}
	}
	return nil, fmt.Errorf("ninjas sample: no deal in %d gives seat %d a legal option", maxDeals, v.ToMove)
}

// played is the card a play event took out of a hand, and how many.
func played(e engine.Event) (Kind, int) {
	k, count := Kind(e.A), 1
	switch EventKind(e.Kind) {
	case EvAttack, EvRespond:
		count = int(e.C) &^ JesterFlag
	case EvHighwayman:
		k = Highwayman
	}
	if int(e.C)&JesterFlag != 0 && EventKind(e.Kind) != EvDiscard {
		k, count = Jester, 1
	}
	return k, count
}

// princessCards is, per seat, the attack cards a Princess took into its hand that have
// not provably left it.
func princessCards(me, players int, events []engine.Event) (known [MaxPlayers][NumKinds]uint8, err error) {
	for _, e := range events {
		switch EventKind(e.Kind) {
		case EvPrincess, EvAttack, EvFortify, EvDiscard, EvRespond, EvHighwayman:
		default:
			continue
		}
		s := int(e.Seat)
		k, count := played(e)
		if s < 0 || s >= players || k >= NumKinds || count < 0 {
			return known, fmt.Errorf("ninjas sample: event %+v out of range", e)
		}
		if EventKind(e.Kind) == EvPrincess {
			known[s][k]++
			continue
		}
		known[s][k] -= uint8(min(count, int(known[s][k])))
	}
	known[me] = [NumKinds]uint8{}
	return known, nil
}

// public copies everything the view shows into g, and what the events tell of the
// Highwayman window and a standing Ladder.
func (g *Game) public(deck Deck, v *View, events []engine.Event, r *engine.Rand) error {
	opts, log := g.opts[:0], g.log[:0]
	*g = Game{players: v.Players, deck: deck, rnd: engine.NewRand(r.Uint64()), opts: opts, log: append(log, events...)}
	g.phase, g.first, g.turnSeat, g.turns, g.decisions = v.Phase, v.First, v.TurnSeat, v.Turns, v.Decisions
	g.forts, g.discard, g.target, g.hit, g.winner = v.Forts, v.Discard, v.Target, -1, engine.NoSeat
	g.att, g.ladder, g.winHolder, g.winAsk = attackCard{kind: NoKind}, NoKind, -1, 0
	for s := 0; s < v.Players; s++ {
		g.gems[s] = int8(v.Gems[s])
	}
	if v.Phase == PhaseRespond {
		if v.Pending.Kind >= NumKinds || v.Hit < 0 || v.Hit >= v.Players {
			return errors.New("ninjas sample: a pending attack out of range")
		}
		g.att = attackCard{kind: v.Pending.Kind, jester: v.Pending.Jester, count: uint8(v.Pending.Count)}
		g.hit = v.Hit
	}
	if v.Phase == PhaseHighwayman {
		g.winGems, g.winHolder, g.winAsk = v.WindowGems, v.WindowHolder, v.ToMove
		for i := len(events) - 1; i >= 0; i-- {
			k := EventKind(events[i].Kind)
			if k == EvGems || k == EvHighwayman {
				break
			}
			if k == EvLetGo {
				g.winPasses++
			}
		}
	}
	if v.Ladder {
		g.ladder = Ladder
		for i := len(events) - 1; i >= 0; i-- {
			if events[i].Kind == uint8(EvLadder) {
				g.ladder = Kind(events[i].A)
				break
			}
		}
	}
	return nil
}

// dealHidden fills the other hands and the draw pile from the unseen cards, the proven
// ones first.
func (g *Game) dealHidden(v *View, known *[MaxPlayers][NumKinds]uint8, r *engine.Rand) error {
	var counts [NumKinds]uint8
	pool := engine.Pool{Count: counts[:]}
	for k, c := range g.deck {
		counts[k] = uint8(c)
		pool.N += c
	}
	seen := func(k Kind, n int) error {
		if k >= NumKinds {
			return fmt.Errorf("ninjas sample: card %d on the table", k)
		}
		return pool.Take(int(k), n)
	}
	for k := Kind(0); k < NumKinds; k++ {
		if err := seen(k, int(v.Hand[k])+int(v.Discard[k])); err != nil {
			return err
		}
	}
	for s := 0; s < v.Players; s++ {
		for _, c := range v.Forts[s] {
			if c != NoKind {
				if err := seen(c, 1); err != nil {
					return err
				}
			}
		}
	}
	if g.att.kind != NoKind {
		if err := seen(g.attackPhysical(), max(1, int(g.att.count)*boolInt(!g.att.jester))); err != nil {
			return err
		}
	}
	if g.ladder != NoKind {
		if err := seen(g.ladder, 1); err != nil {
			return err
		}
	}
	return g.fill(v, known, &pool, r)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (g *Game) fill(v *View, known *[MaxPlayers][NumKinds]uint8, pool *engine.Pool, r *engine.Rand) error {
	g.hands[v.Seat] = v.Hand
	for s := 0; s < v.Players; s++ {
		if s == v.Seat {
			continue
		}
		for k, c := range known[s] {
			if err := pool.Take(k, int(c)); err != nil {
				return err
			}
		}
		g.hands[s] = known[s]
		if handSize(&g.hands[s]) > v.HandSizes[s] {
			return fmt.Errorf("ninjas sample: seat %d holds %d cards, more of them known", s, v.HandSizes[s])
		}
	}
	deal := newKindPool(pool)
	for s := 0; s < v.Players; s++ {
		for have := handSize(&g.hands[s]); s != v.Seat && have < v.HandSizes[s]; have++ {
			k := deal.draw(r)
			if k < 0 {
				return errors.New("ninjas sample: fewer unseen cards than hidden places")
			}
			g.hands[s][k]++
		}
	}
	if deal.n != v.DrawPile {
		return fmt.Errorf("ninjas sample: %d unseen cards for a draw pile of %d", deal.n, v.DrawPile)
	}
	for g.pileN = 0; g.pileN < v.DrawPile; g.pileN++ {
		g.pile[g.pileN] = Kind(deal.draw(r))
	}
	return nil
}

// StackPile puts a card of kind k depth cards below the top of the draw pile (0: the
// top), swapped with one chosen uniformly among the pile's cards of that kind outside
// the depths in fixed (stacked before): a sample of the pile made to deal a card the
// searching seat has since seen itself draw, where every arrangement of the rest stays
// as likely as before. It reports false when no such card of kind k is in the pile.
func (g *Game) StackPile(depth int, k Kind, fixed []int, r *engine.Rand) bool {
	at := g.pileN - 1 - depth
	if at < 0 || k >= NumKinds {
		return false
	}
	n, pick := 0, -1
	for i := 0; i < g.pileN; i++ {
		if g.pile[i] != k || stacked(g.pileN-1-i, fixed) {
			continue
		}
		if n++; r.Intn(n) == 0 { // reservoir: uniform among the candidates
			pick = i
		}
	}
	if pick < 0 {
		return false
	}
	g.pile[at], g.pile[pick] = g.pile[pick], g.pile[at]
	return true
}

func stacked(depth int, fixed []int) bool {
	for _, d := range fixed {
		if d == depth {
			return true
		}
	}
	return false
}

// SwapHand gives seat the hand h by exchanging cards with the draw pile: each card h
// holds beyond the seat's hand is taken from a place in the pile chosen uniformly among
// that kind's, and a card the seat holds beyond h goes to that place. A sample with
// one other seat's hidden hand replaced by a hand believed from earlier decisions, the
// rest of the pile as before. It reports false, g unchanged, when the hand sizes differ
// or the pile lacks a card h needs.
func (g *Game) SwapHand(seat int, h [NumKinds]uint8, r *engine.Rand) bool {
	if seat < 0 || seat >= g.players || handSize(&h) != handSize(&g.hands[seat]) {
		return false
	}
	var give []Kind // the seat's cards beyond h, in kind order
	for k := Kind(0); k < NumKinds; k++ {
		for c := h[k]; c < g.hands[seat][k]; c++ {
			give = append(give, k)
		}
	}
	pile, hand := g.pile, g.hands[seat]
	for k := Kind(0); k < NumKinds; k++ {
		for ; hand[k] < h[k]; hand[k]++ {
			n, pick := 0, -1
			for i := 0; i < g.pileN; i++ {
				if pile[i] == k && g.pile[i] == k { // a place not swapped already
					if n++; r.Intn(n) == 0 {
						pick = i
					}
				}
			}
			if pick < 0 {
				return false
			}
			pile[pick], give = give[0], give[1:]
		}
	}
	g.pile, g.hands[seat] = pile, h
	return true
}
