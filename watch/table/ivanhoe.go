package table

import (
	"fmt"

	"github.com/arena-games/arena/engine/ivanhoe"
)

// The tournament colours as the cards and tokens print them; supporters (squires,
// maidens) are white, action cards parchment.
var ivanhoeFill = [ivanhoe.NumColours]string{"#7e3fa0", "#c8322d", "#2d5fb4", "#e6c229", "#3c8d3c"}

const (
	ivWidth   = 960
	ivRow     = 100 // a seat's row
	ivTop     = 70  // the tournament's band
	ivCardW   = 48
	ivCardH   = 70
	ivDisplay = 230 // where displays start
)

func ivanhoeCard(c ivanhoe.Card) (fill, ink string) {
	switch {
	case c.IsColour():
		fill = ivanhoeFill[c.Colour()]
		if c.Colour() == ivanhoe.Yellow {
			return fill, "#1c1917"
		}
		return fill, "#ffffff"
	case c.Value() > 0:
		return "#fbfaf5", "#1c1917"
	}
	return "#e8dcc0", "#1c1917"
}

// drawIvanhoe lays the table out as the rulebook's tournament: the colour, then a row
// per seat with its tokens, its display left to right in the order played and its
// total, shield and stun before it; the seat's own hand below when the view holds one.
func drawIvanhoe(v *ivanhoe.View, bots []string) string {
	h := ivTop + ivRow*v.Players + 20
	if v.Seat >= 0 {
		h += ivCardH + 40
	}
	s := newSVG(ivWidth, h, fmt.Sprintf("Ivanhoe, %s tournament", v.Colour))
	ivanhoeBand(s, v)
	for seat := range v.Players {
		ivanhoeSeat(s, v, seat, bots, ivTop+seat*ivRow)
	}
	if v.Seat >= 0 {
		y := ivTop + ivRow*v.Players + 10
		s.text(10, y+14, "start", "#1c1917", 14, "hand of %s", seatName(v.Seat, bots))
		x := 10
		for c, n := range v.Hand {
			for range n {
				fill, ink := ivanhoeCard(ivanhoe.Card(c))
				s.card(x, y+22, ivCardW, ivCardH, fill, ink, ivanhoe.Card(c).String(), "data-place", "hand", "data-seat", fmt.Sprint(v.Seat))
				x += ivCardW + 4
			}
		}
	}
	return s.String()
}

// ivanhoeBand is the tournament's colour, the piles, and an action waiting for an
// Ivanhoe answer.
func ivanhoeBand(s *svg, v *ivanhoe.View) {
	fill := "#a8a29e"
	if v.Colour < ivanhoe.NumColours {
		fill = ivanhoeFill[v.Colour]
	}
	s.open("tournament", "data-colour", v.Colour.String())
	s.rect(10, 8, 260, 50, fill, "#3f3f46")
	title := v.Colour.String() + " tournament"
	if v.Colour == ivanhoe.NoColour {
		title = "colour not named yet"
	}
	s.text(140, 38, "middle", "#ffffff", 18, "%s", title)
	s.close()
	discard := sum(v.Discard[:])
	s.open("piles", "data-deck", fmt.Sprint(v.DrawPile), "data-discard", fmt.Sprint(discard))
	s.text(290, 28, "start", "#1c1917", 14, "draw pile %d · discard %d", v.DrawPile, discard)
	s.text(290, 48, "start", "#57534e", 12, "tournament %d · %d tokens win · seat %d to move (%s)", v.Tournaments+1, v.TokensToWin, v.ToMove, v.Phase)
	s.close()
	if v.Pending != ivanhoe.NoCard {
		fill, ink := ivanhoeCard(v.Pending)
		s.text(760, 24, "end", "#1c1917", 12, "seat %d plays, Ivanhoe may answer:", v.PendingBy)
		s.card(770, 4, 90, 56, fill, ink, v.Pending.String(), "data-place", "pending", "data-seat", fmt.Sprint(v.PendingBy))
	}
}

// ivanhoeSeat draws one seat's row at y.
func ivanhoeSeat(s *svg, v *ivanhoe.View, seat int, bots []string, y int) {
	s.open("seat", "data-seat", fmt.Sprint(seat))
	bg := "#fbf8ef"
	if seat == v.ToMove {
		bg = "#fff3c4"
	}
	s.rect(4, y, ivWidth-8, ivRow-6, bg, "#d6d3d1")
	s.text(12, y+20, "start", "#1c1917", 14, "%s", seatName(seat, bots))
	s.text(12, y+40, "start", "#57534e", 12, "%d cards in hand", v.HandSizes[seat])
	for c := ivanhoe.Colour(0); c < ivanhoe.NumColours; c++ {
		fill := "none"
		if v.Tokens[seat][c] {
			fill = ivanhoeFill[c]
			s.open("token", "data-colour", c.String(), "data-seat", fmt.Sprint(seat))
		} else {
			s.open("no-token")
		}
		s.circle(20+int(c)*22, y+62, 8, fill, ivanhoeFill[c])
		s.close()
	}
	// The Shield and Stunned cards stand before the display of the seat they protect
	// or stun (R13, R14).
	if v.Shield == seat {
		s.card(ivDisplay-58, y+8, 52, 36, "#e8dcc0", "#1c1917", ivanhoe.Shield.String(), "data-place", "before", "data-seat", fmt.Sprint(seat))
	}
	if v.Stunned == seat {
		s.card(ivDisplay-58, y+48, 52, 36, "#e8dcc0", "#1c1917", ivanhoe.Stunned.String(), "data-place", "before", "data-seat", fmt.Sprint(seat))
	}
	if !v.InTournament[seat] {
		s.text(ivDisplay, y+50, "start", "#78716c", 16, "withdrawn from this tournament")
		s.close()
		return
	}
	d := v.Displays[seat]
	step := ivCardW + 4
	if len(d) > 0 && (ivWidth-ivDisplay-90)/len(d) < step {
		step = (ivWidth - ivDisplay - 90) / len(d)
	}
	for i, c := range d {
		fill, ink := ivanhoeCard(c)
		s.card(ivDisplay+i*step, y+12, ivCardW, ivCardH, fill, ink, c.String(), "data-place", "display", "data-seat", fmt.Sprint(seat))
	}
	s.text(ivWidth-20, y+52, "end", "#1c1917", 20, "%d", v.Total(seat))
	s.close()
}
