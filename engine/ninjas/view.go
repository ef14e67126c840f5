package ninjas

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/arena-games/arena/engine"
)

// Pending is an attack card waiting for a response, as every seat sees it (attack cards
// are played face up).
type Pending struct {
	Kind   Kind // the kind played (what a Jester is named as); NoKind when none
	Jester bool
	Count  int // cards in a revolt of Peasants, else 1
}

// View is what one seat may know: its own hand, every public thing on the table, and the
// pending decision. It never holds another seat's cards or the draw pile's order. All of
// it is fixed arrays, indexed by seat up to Players.
type View struct {
	Seat    int
	Players int
	Phase   Phase
	ToMove  int
	// TurnSeat is the player on turn; Turns the turns completed (N13 ends at MaxTurns).
	TurnSeat  int
	Turns     int
	Decisions int
	First     int
	// Hand counts the seat's own cards by kind.
	Hand [NumKinds]uint8
	// HandSizes, Gems and Forts are every seat's; Forts holds the card standing in each
	// slot (the slot's kind, a Jester, or NoKind).
	HandSizes [MaxPlayers]int
	Gems      [MaxPlayers]int
	Forts     [MaxPlayers][NumForts]Kind
	// DrawPile is the number of cards left to draw; Discard counts the face-up pile.
	DrawPile int
	Discard  [NumKinds]uint8
	// Target is the rival attacked this turn (-1 before an attack) and Ladder whether a
	// Ladder stands against it.
	Target int
	Ladder bool
	// Pending is the attack card waiting for a response in PhaseRespond, and Hit the
	// seat it hits (the attacker after a Traitor).
	Pending Pending
	Hit     int
	// In PhaseHighwayman, WindowGems gems have moved and WindowHolder holds them.
	WindowGems   int
	WindowHolder int
	Winner       int
}

// View is what seat may know now.
func (g *Game) View(seat int) engine.View {
	v := &View{}
	g.FillView(v, seat)
	return v
}

// FillView writes seat's view into v, for callers that reuse one View. It writes every
// field in place rather than a fresh View copied in: the search's play-outs fill a view
// for each heuristic move.
func (g *Game) FillView(v *View, seat int) {
	v.Seat, v.Players, v.Phase, v.ToMove = seat, g.players, g.phase, g.ToMove()
	v.TurnSeat, v.Turns, v.Decisions, v.First = g.turnSeat, g.turns, g.decisions, g.first
	v.DrawPile, v.Discard, v.Target, v.Ladder = g.pileN, g.discard, g.target, g.ladder != NoKind
	v.Hand = [NumKinds]uint8{}
	if seat >= 0 && seat < g.players {
		v.Hand = g.hands[seat]
	}
	for s := 0; s < MaxPlayers; s++ {
		if s < g.players {
			v.HandSizes[s], v.Gems[s], v.Forts[s] = handSize(&g.hands[s]), int(g.gems[s]), g.forts[s]
		} else {
			v.HandSizes[s], v.Gems[s], v.Forts[s] = 0, 0, [NumForts]Kind{NoKind, NoKind, NoKind}
		}
	}
	v.Pending, v.Hit = Pending{Kind: NoKind}, -1
	if g.phase == PhaseRespond {
		v.Pending = Pending{Kind: g.att.kind, Jester: g.att.jester, Count: int(g.att.count)}
		v.Hit = g.hit
	}
	v.WindowGems, v.WindowHolder = 0, -1
	if g.phase == PhaseHighwayman {
		v.WindowGems, v.WindowHolder = g.winGems, g.winHolder
	}
	v.Winner = g.winner
}

// handSize counts a hand's cards, eight kinds to a word: the two words' byte sums stay
// below 256 (the deck has 95 cards), and a multiply by 0x0101... gathers them in the top
// byte.
func handSize(h *[NumKinds]uint8) int {
	w := binary.LittleEndian.Uint64(h[:8]) + binary.LittleEndian.Uint64(h[8:])
	return int((w * 0x0101010101010101) >> 56)
}

// ViewSeat is the seat the view belongs to.
func (v *View) ViewSeat() int { return v.Seat }

// Has reports whether seat has a fortification in slot f.
func (v *View) Has(seat int, f Fort) bool { return v.Forts[seat][f] != NoKind }

func (v *View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seat %d of %d, turn %d (seat %d on turn), phase %s, seat %d to move\n",
		v.Seat, v.Players, v.Turns+1, v.TurnSeat, v.Phase, v.ToMove)
	fmt.Fprintf(&b, "hand: %s\n", engine.Counts(v.Hand[:], kindName))
	for s := 0; s < v.Players; s++ {
		fmt.Fprintf(&b, "seat %d: %d gems, %d cards, %s\n", s, v.Gems[s], v.HandSizes[s], fortsString(v.Forts[s]))
	}
	fmt.Fprintf(&b, "draw pile %d cards; discards: %s\n", v.DrawPile, engine.Counts(v.Discard[:], kindName))
	if v.Target >= 0 {
		fmt.Fprintf(&b, "attacking seat %d", v.Target)
		if v.Ladder {
			b.WriteString(" with a Ladder standing")
		}
		b.WriteString("\n")
	}
	if v.Pending.Kind != NoKind {
		fmt.Fprintf(&b, "pending: %s hitting seat %d\n", cardsPhrase(v.Pending.Kind, v.Pending.Count, v.Pending.Jester), v.Hit)
	}
	if v.WindowHolder >= 0 {
		fmt.Fprintf(&b, "%d gems just moved to seat %d\n", v.WindowGems, v.WindowHolder)
	}
	return b.String()
}

func fortsString(f [NumForts]Kind) string {
	var parts []string
	for slot, c := range f {
		switch c {
		case NoKind:
		case Jester:
			parts = append(parts, "a Jester as "+fortKinds[slot].String())
		default:
			parts = append(parts, c.String())
		}
	}
	if len(parts) == 0 {
		return "unfortified"
	}
	return "fortified by " + strings.Join(parts, " and ")
}

func kindName(k int) string { return Kind(k).String() }
