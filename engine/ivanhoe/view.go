package ivanhoe

import (
	"fmt"
	"github.com/arena-games/arena/engine"
	"strings"
)

// View is what one seat may know: its own hand, every public thing on the table, and the
// pending decision. It never holds another seat's hand or the draw pile's order.
type View struct {
	Seat    int
	Players int
	Phase   Phase
	ToMove  int
	// Hand counts the seat's own cards by kind.
	Hand [NumCards]uint8
	// HandSizes is the number of cards in every seat's hand.
	HandSizes []int
	// Displays lists every seat's display, earliest-played first.
	Displays [][]Card
	// Shield and Stunned are the seats the two cards stand in front of, or -1.
	Shield, Stunned int
	// InTournament marks the seats still in the current tournament.
	InTournament []bool
	// Tokens marks the colours of token each seat holds.
	Tokens [][NumColours]bool
	// Colour is the tournament colour (NoColour before the starter names it).
	Colour Colour
	// LastFinalPurple is set when the previous tournament ended purple (R6).
	LastFinalPurple bool
	Starter         int
	// PlayedThisTurn and AddedThisTurn count the cards the player on turn played at all
	// and put into their display (R3, R14).
	PlayedThisTurn, AddedThisTurn int
	// DrawPile is the number of cards left to draw; Discard counts the face-up discard
	// pile by kind.
	DrawPile int
	Discard  [NumCards]uint8
	// Pending is the action card waiting for an Ivanhoe answer in PhaseReaction, with
	// the seat that played it and its arguments; NoCard otherwise.
	Pending     Card
	PendingBy   int
	PendingArgs [3]int
	Tournaments int
	TokensToWin int
	// The view has no decision count on purpose: it would tell every seat that an
	// Ivanhoe holder had been asked and let an action stand (R23).
}

// ViewSeat is the seat the view belongs to.
func (v *View) ViewSeat() int { return v.Seat }

// Total is the display total of seat under the current colour (R9).
func (v *View) Total(seat int) int { return total(v.Displays[seat], v.Colour) }

func (v *View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seat %d of %d, %s tournament, phase %s, seat %d to move\n", v.Seat, v.Players, v.Colour, v.Phase, v.ToMove)
	fmt.Fprintf(&b, "hand: %s\n", engine.Counts(v.Hand[:], func(k int) string { return Card(k).String() }))
	for s := 0; s < v.Players; s++ {
		fmt.Fprintf(&b, "seat %d: %d cards, tokens %s, ", s, v.HandSizes[s], tokenString(v.Tokens[s]))
		if !v.InTournament[s] {
			b.WriteString("withdrawn\n")
			continue
		}
		fmt.Fprintf(&b, "display %s = %d", displayString(v.Displays[s]), v.Total(s))
		if v.Shield == s {
			b.WriteString(", shielded")
		}
		if v.Stunned == s {
			b.WriteString(", stunned")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func displayString(d []Card) string {
	if len(d) == 0 {
		return "(empty)"
	}
	parts := make([]string, len(d))
	for i, c := range d {
		parts[i] = c.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func tokenString(t [NumColours]bool) string {
	var parts []string
	for c := Colour(0); c < NumColours; c++ {
		if t[c] {
			parts = append(parts, c.String())
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// total is a display's total: printed values, or one per card in green (R9).
func total(d []Card, c Colour) int {
	if c == Green {
		return len(d)
	}
	t := 0
	for _, x := range d {
		t += x.Value()
	}
	return t
}
