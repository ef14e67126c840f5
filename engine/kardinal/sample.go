package kardinal

import (
	"errors"
	"fmt"

	"github.com/arena-games/arena/engine"
)

// Sampler is Kardinal und König's engine.Sampler. The distribution: every card the
// seat has not seen (not in its hand, face up, in the discard pile or left in the box,
// K1) is equally likely to be in any other hand or anywhere in the draw pile, except
// the face-up cards another seat took (public, K6 and K7): those are in that seat's
// hand until it plays or exchanges a card of their kind. The sample's log is the seat's
// events and its random future is drawn from r; the board is the view's.
func Sampler() engine.Sampler { return sampler{} }

type sampler struct{}

// Sample builds a state from v (a *kardinal.View) and the seat's events.
func (sampler) Sample(dst engine.Game, view engine.View, events []engine.Event, r *engine.Rand) (engine.Game, error) {
	v, ok := view.(*View)
	if !ok {
		return nil, fmt.Errorf("kardinal sample: a %T is not a Kardinal view", view)
	}
	n := v.Players
	switch {
	case n < MinPlayers || n > MaxPlayers || v.Seat < 0 || v.Seat >= n:
		return nil, fmt.Errorf("kardinal sample: seat %d of %d players", v.Seat, n)
	case v.Phase == PhaseOver || v.ToMove < 0 || v.ToMove >= n:
		return nil, errors.New("kardinal sample: the game is over")
	case v.Board == nil || v.DrawPile < 0 || v.DrawPile > DeckSize:
		return nil, errors.New("kardinal sample: no board, or a draw pile out of range")
	}
	known, err := provenCards(v.Seat, n, events)
	if err != nil {
		return nil, err
	}
	g, _ := dst.(*Game)
	if g == nil {
		g = &Game{}
	}
	g.public(v, events, r)
	if err := g.dealHidden(v, &known, r); err != nil {
		return nil, err
	}
	g.computeOptions()
	return g, nil
}

// provenCards is, per seat, the face-up cards it took and has not paid out since.
func provenCards(me, players int, events []engine.Event) (known [MaxPlayers][NumKinds]uint8, err error) {
	for _, e := range events {
		s := int(e.Seat)
		forget := func(k, n int) {
			if k >= 0 && k < int(NumKinds) {
				known[s][k] -= uint8(min(n, int(known[s][k])))
			}
		}
		switch EventKind(e.Kind) {
		case EvTakeFaceUp, EvPlace, EvDiscard:
			if s < 0 || s >= players {
				return known, fmt.Errorf("kardinal sample: event %+v out of range", e)
			}
		default:
			continue
		}
		switch EventKind(e.Kind) {
		case EvTakeFaceUp:
			if e.A < 0 || int(e.A) >= int(NumKinds) {
				return known, fmt.Errorf("kardinal sample: event %+v out of range", e)
			}
			known[s][e.A]++
		case EvPlace:
			forget(int(e.C)/2, 1+int(e.C)%2)
		case EvDiscard:
			forget(int(e.A), 1)
		}
	}
	known[me] = [NumKinds]uint8{}
	return known, nil
}

// public copies everything the view shows into g.
func (g *Game) public(v *View, events []engine.Event, r *engine.Rand) {
	log, opts := g.log[:0], g.opts[:0]
	if log == nil {
		log, opts = make([]engine.Event, 0, len(events)+1024), make([]engine.Option, 0, 160)
	}
	g.state = state{players: int8(v.Players), start: int8(v.Start), toMove: int8(v.ToMove), phase: v.Phase}
	g.board, g.log, g.opts = v.Board, append(log, events...), opts
	g.faceUp, g.discard, g.removed, g.table = v.FaceUp, v.Discard, uint8(v.Removed), v.Table
	for s := 0; s < v.Players; s++ {
		g.monSupply[s], g.advSupply[s], g.score[s] = uint8(v.Monasteries[s]), uint8(v.Advisors[s]), int16(v.Score[s])
	}
	switch {
	case v.LastRound:
		g.exhaustions = 2
	case v.InterimDone:
		g.exhaustions = 1
	}
	g.turnCountry, g.turnPieces, g.turnCards, g.turnOpened = v.TurnCountry, uint8(v.TurnPieces), uint8(v.TurnCards), v.TurnOpened
	g.decisions = int32(v.Decisions)
	g.rnd = engine.NewRand(r.Uint64())
}

// dealHidden fills the other hands and the draw pile from the unseen cards, the proven
// ones first.
func (g *Game) dealHidden(v *View, known *[MaxPlayers][NumKinds]uint8, r *engine.Rand) error {
	var counts [NumKinds]uint8
	pool := engine.Pool{Count: counts[:]}
	for k := Kind(0); k < NumKinds; k++ {
		c := k.Count() - v.Removed
		if c < 0 {
			return fmt.Errorf("kardinal sample: %d cards of each kind removed", v.Removed)
		}
		counts[k] = uint8(c)
		pool.N += c
		if err := pool.Take(int(k), int(v.Hand[k])+int(v.FaceUp[k])+int(v.Discard[k])); err != nil {
			return err
		}
	}
	g.hands[v.Seat] = v.Hand
	for s := 0; s < v.Players; s++ {
		if s == v.Seat {
			continue
		}
		have := 0
		for k := range known[s] {
			if err := pool.Take(k, int(known[s][k])); err != nil {
				return err
			}
			have += int(known[s][k])
		}
		if have > v.HandSizes[s] {
			return fmt.Errorf("kardinal sample: seat %d holds %d cards, %d of them known", s, v.HandSizes[s], have)
		}
		g.hands[s] = known[s]
	}
	for s := 0; s < v.Players; s++ {
		for have := g.handSize(s); s != v.Seat && have < v.HandSizes[s]; have++ {
			k := pool.Draw(r)
			if k < 0 {
				return errors.New("kardinal sample: fewer unseen cards than hidden places")
			}
			g.hands[s][k]++
		}
	}
	if pool.N != v.DrawPile {
		return fmt.Errorf("kardinal sample: %d unseen cards for a draw pile of %d", pool.N, v.DrawPile)
	}
	for g.pileLen = 0; int(g.pileLen) < v.DrawPile; g.pileLen++ {
		g.pile[g.pileLen] = uint8(pool.Draw(r))
	}
	return nil
}
