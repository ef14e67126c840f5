package table

import (
	"fmt"

	"github.com/arena-games/arena/engine/ninjas"
)

const (
	njPanelW = 310
	njPanelH = 200
	njTop    = 120 // the turn's band
	njCardW  = 64
	njCardH  = 44
)

// fortSlots are the kinds each castle slot holds, in the engine's slot order.
var fortSlots = [ninjas.NumForts]ninjas.Kind{ninjas.Castle, ninjas.Archer, ninjas.Minstrel}

// ninjasCard colours a card by what it does: value cards (Peasant to King) gold,
// fortifications stone, the rest (attacks and responses) rose.
func ninjasCard(k ninjas.Kind) string {
	switch {
	case k.IsValue():
		return "#ecd9a0"
	case k == ninjas.Castle || k == ninjas.Archer || k == ninjas.Minstrel:
		return "#c9c6c0"
	}
	return "#e7b7b0"
}

// drawNinjas lays out a kingdom per seat (its gems, its castle's three slots with what
// stands in them, its hand size), the turn above them (whose turn, the rival attacked,
// a Ladder standing, the attack card waiting for a response, gems a Highwayman may
// take), and the seat's own hand below when the view holds one.
func drawNinjas(v *ninjas.View, bots []string) string {
	cols := min(v.Players, 3)
	rows := (v.Players + cols - 1) / cols
	w := cols*(njPanelW+10) + 10
	h := njTop + rows*(njPanelH+10) + 10
	if v.Seat >= 0 {
		h += njCardH + 40
	}
	s := newSVG(max(w, 660), h, fmt.Sprintf("Of Knights and Ninjas, turn %d", v.Turns+1))
	ninjasTurn(s, v)
	for seat := range v.Players {
		ninjasKingdom(s, v, seat, bots, 10+(seat%cols)*(njPanelW+10), njTop+(seat/cols)*(njPanelH+10))
	}
	if v.Seat >= 0 {
		y := njTop + rows*(njPanelH+10) + 4
		s.text(10, y+14, "start", "#1c1917", 14, "hand of %s", seatName(v.Seat, bots))
		x := 10
		for k, n := range v.Hand {
			for range n {
				s.card(x, y+22, njCardW, njCardH, ninjasCard(ninjas.Kind(k)), "#1c1917", ninjas.Kind(k).String(), "data-place", "hand", "data-seat", fmt.Sprint(v.Seat))
				x += njCardW + 4
			}
		}
	}
	return s.String()
}

// ninjasTurn is the band of the turn: the piles, whose turn it is, and the attack in
// progress with the card waiting for its response.
func ninjasTurn(s *svg, v *ninjas.View) {
	discard := sum(v.Discard[:])
	s.open("piles", "data-deck", fmt.Sprint(v.DrawPile), "data-discard", fmt.Sprint(discard))
	s.text(10, 24, "start", "#1c1917", 16, "turn %d: seat %d on turn, seat %d to move (%s)", v.Turns+1, v.TurnSeat, v.ToMove, v.Phase)
	s.text(10, 46, "start", "#57534e", 13, "draw pile %d · discard %d", v.DrawPile, discard)
	s.close()
	if v.Target < 0 {
		return
	}
	s.open("attack", "data-target", fmt.Sprint(v.Target))
	s.text(10, 76, "start", "#9f1239", 15, "seat %d attacks seat %d", v.TurnSeat, v.Target)
	x := 200
	if v.Ladder {
		s.card(x, 56, njCardW, njCardH, ninjasCard(ninjas.Ladder), "#1c1917", ninjas.Ladder.String(), "data-place", "attack")
		x += njCardW + 8
	}
	if v.Pending.Kind != ninjas.NoKind {
		name := v.Pending.Kind.String()
		if v.Pending.Jester {
			name = "Jester as " + name
		}
		for range max(v.Pending.Count, 1) {
			s.card(x, 56, njCardW+16, njCardH, ninjasCard(v.Pending.Kind), "#1c1917", name, "data-place", "attack")
			x += njCardW + 20
		}
		s.text(x, 82, "start", "#9f1239", 13, "hits seat %d, waiting for a response", v.Hit)
	}
	s.close()
	if v.WindowHolder >= 0 {
		s.text(10, 106, "start", "#1c1917", 13, "%d gems just moved to seat %d: a Highwayman may take them", v.WindowGems, v.WindowHolder)
	}
}

// ninjasKingdom draws one seat's kingdom in a panel at x, y.
func ninjasKingdom(s *svg, v *ninjas.View, seat int, bots []string, x, y int) {
	s.open("seat", "data-seat", fmt.Sprint(seat), "data-gems", fmt.Sprint(v.Gems[seat]))
	bg := "#fbf8ef"
	switch {
	case seat == v.ToMove:
		bg = "#fff3c4"
	case seat == v.Target:
		bg = "#fde2e2"
	}
	s.rect(x, y, njPanelW, njPanelH, bg, "#d6d3d1")
	s.text(x+10, y+20, "start", "#1c1917", 14, "%s", seatName(seat, bots))
	s.text(x+10, y+40, "start", "#57534e", 12, "%d cards in hand · %d gems", v.HandSizes[seat], v.Gems[seat])
	for i := range v.Gems[seat] {
		gx, gy := x+16+(i%15)*19, y+58+(i/15)*18
		fmt.Fprintf(&s.b, `<polygon class="gem" points="%d,%d %d,%d %d,%d %d,%d" fill="#16a3b8" stroke="#0e7490"/>`, gx, gy-8, gx+7, gy, gx, gy+8, gx-7, gy)
	}
	// The castle's three slots (N5): each holds its kind of card, or a Jester for it.
	s.text(x+10, y+112, "start", "#57534e", 12, "castle")
	for slot, c := range v.Forts[seat] {
		sx := x + 10 + slot*(njCardW+30)
		if c == ninjas.NoKind {
			fmt.Fprintf(&s.b, `<rect class="slot" x="%d" y="%d" width="%d" height="%d" rx="4" fill="none" stroke="#a8a29e" stroke-dasharray="4 3"/>`, sx, y+120, njCardW+20, njCardH+10)
			s.text(sx+(njCardW+20)/2, y+150, "middle", "#a8a29e", 11, "%s", fortSlots[slot])
			continue
		}
		name := c.String()
		if c == ninjas.Jester {
			name = "Jester as " + fortSlots[slot].String()
		}
		s.card(sx, y+120, njCardW+20, njCardH+10, ninjasCard(c), "#1c1917", name, "data-place", "castle", "data-seat", fmt.Sprint(seat))
	}
	s.close()
}
