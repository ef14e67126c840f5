package table

import (
	"fmt"
	"math"

	"github.com/arena-games/arena/engine/kardinal"
)

const (
	kdWidth = 980
	kdMapY  = 60  // the map's top
	kdCellW = 240 // a country's cell
	kdCellH = 200
)

// kdPlace puts each country where it lies on the board's map of Europe, in cells of a
// 4 by 3 grid (columns, rows; fractions allowed), so that allied countries are
// neighbours and an alliance's marker sits on their border.
var kdPlace = [kardinal.NumCountries][2]float64{
	kardinal.England: {0, 0}, kardinal.Lothringen: {1, 0}, kardinal.Franken: {2, 0},
	kardinal.Frankreich: {0, 1}, kardinal.Burgund: {1, 1}, kardinal.Schwaben: {2, 1}, kardinal.Bayern: {3, 1},
	kardinal.Aragon: {0, 2}, kardinal.Italien: {1.6, 2},
}

// kdTint is each kind of card's colour, lightened for the countries it names, so that
// a card in hand points at its countries on the map.
var kdTint = [kardinal.NumKinds]string{"#f3c4c0", "#c8e6c0", "#f5e7a1", "#f9d1a6", "#dcc8ea"}

// kdCard is each kind of card's full colour.
var kdCard = [kardinal.NumKinds]string{"#c8322d", "#3c8d3c", "#e6c229", "#e8852a", "#7e3fa0"}

func kdCentre(c kardinal.Country) (int, int) {
	p := kdPlace[c]
	return 10 + kdCellW/2 + int(p[0]*kdCellW), kdMapY + kdCellH/2 + int(p[1]*kdCellH)
}

// kdSpace is where a space is drawn: on an ellipse inside its country.
func kdSpace(b *kardinal.Board, space int) (int, int) {
	c := b.CountryOf(space)
	of := b.SpacesOf(c)
	i := 0
	for j, sp := range of {
		if int(sp) == space {
			i = j
		}
	}
	a := 2*math.Pi*float64(i)/float64(len(of)) - math.Pi/2
	x, y := kdCentre(c)
	return x + int(75*math.Cos(a)), y + 5 + int(45*math.Sin(a))
}

// drawKardinal draws the map (countries tinted by the card that names them, monastery
// spaces joined by roads, alliance markers on the borders, monasteries in their seat's
// colour, advisors on each country's coat of arms), the scoring track, supplies, the
// face-up cards and piles, and the seat's own hand when the view holds one.
func drawKardinal(v *kardinal.View, bots []string) string {
	h := kdMapY + 3*kdCellH + 30 + 28*v.Players + 110
	s := newSVG(kdWidth, h, "Kardinal und König")
	s.text(10, 24, "start", "#1c1917", 16, "seat %d to move (%s) · draw pile %d · discard %d · %d cards out of the game",
		v.ToMove, v.Phase, v.DrawPile, sum(v.Discard[:]), v.Removed)
	if v.TurnCountry != kardinal.NoCountry {
		s.text(10, 46, "start", "#57534e", 13, "this turn: %d piece(s) in %s with %d card(s)", v.TurnPieces, v.TurnCountry, v.TurnCards)
	}
	kdMap(s, v)
	y := kdMapY + 3*kdCellH + 20
	kdTrack(s, v, bots, y)
	y += 28*v.Players + 10
	kdCards(s, v, bots, y)
	return s.String()
}

// kdMap draws the countries, roads, alliances, monasteries and advisors.
func kdMap(s *svg, v *kardinal.View) {
	b := v.Board
	for _, a := range b.Alliances() {
		x1, y1 := kdCentre(a.A)
		x2, y2 := kdCentre(a.B)
		s.line(x1, y1, x2, y2, "#b45309", true)
	}
	for c := kardinal.Country(0); c < kardinal.NumCountries; c++ {
		x, y := kdCentre(c)
		s.open("country", "data-country", c.String())
		s.rect(x-110, y-95, 220, 190, kdTint[kardinal.KindOf(c)], "#78716c")
		s.text(x-100, y-76, "start", "#1c1917", 14, "%s", c)
		kdAdvisors(s, v, c, x, y)
		s.close()
	}
	for sp := range b.Spaces() {
		x1, y1 := kdSpace(b, sp)
		for _, to := range b.Roads(sp) {
			if int(to) > sp {
				x2, y2 := kdSpace(b, int(to))
				s.line(x1, y1, x2, y2, "#a16207", false)
			}
		}
	}
	for sp := range b.Spaces() {
		x, y := kdSpace(b, sp)
		if o := v.Table.OwnerOf(sp); o >= 0 {
			s.open("monastery", "data-seat", fmt.Sprint(o), "data-space", fmt.Sprint(sp+1))
			s.circle(x, y, 11, seatColours[o], "#1c1917")
		} else {
			s.open("space", "data-space", fmt.Sprint(sp+1))
			s.circle(x, y, 11, "#fffdf7", "#a8a29e")
		}
		s.close()
		s.text(x, y+4, "middle", "#a8a29e", 9, "%d", sp+1)
	}
	for _, a := range b.Alliances() {
		x1, y1 := kdCentre(a.A)
		x2, y2 := kdCentre(a.B)
		s.open("alliance", "data-number", fmt.Sprint(a.Number), "data-countries", a.A.String()+"-"+a.B.String())
		s.circle((x1+x2)/2, (y1+y2)/2, 12, "#fef3c7", "#b45309")
		s.text((x1+x2)/2, (y1+y2)/2+4, "middle", "#92400e", 11, "%d", a.Number)
		s.close()
	}
}

// kdAdvisors draws a country's coat of arms with the advisors on it, in their seats'
// colours, and how many it holds (K4).
func kdAdvisors(s *svg, v *kardinal.View, c kardinal.Country, x, y int) {
	fmt.Fprintf(&s.b, `<path d="M%d %d h26 v14 q0 12 -13 18 q-13 -6 -13 -18 z" fill="#fef3c7" stroke="#92400e"/>`, x+70, y-90)
	s.text(x+83, y-70, "middle", "#92400e", 11, "%d", v.Table.AdvisorCap(c))
	ax := x - 100
	for seat := range v.Players {
		for range v.Table.Advisors[c][seat] {
			s.open("advisor", "data-seat", fmt.Sprint(seat), "data-country", c.String())
			s.rect(ax, y+72, 12, 12, seatColours[seat], "#1c1917")
			s.close()
			ax += 15
		}
	}
}

// kdTrack is the scoring track with each seat's marker, its supply and hand size.
func kdTrack(s *svg, v *kardinal.View, bots []string, y int) {
	top := 60
	for seat := range v.Players {
		top = max(top, v.Score[seat])
	}
	for seat := range v.Players {
		yy := y + seat*28
		s.open("score", "data-seat", fmt.Sprint(seat), "data-score", fmt.Sprint(v.Score[seat]))
		s.circle(18, yy+8, 8, seatColours[seat], "#1c1917")
		s.text(32, yy+13, "start", "#1c1917", 13, "%s", seatName(seat, bots))
		s.rect(240, yy+2, 280, 12, "#e7e5e4", "#a8a29e")
		s.circle(240+280*v.Score[seat]/top, yy+8, 7, seatColours[seat], "#1c1917")
		s.text(540, yy+13, "start", "#1c1917", 13, "%d points · %d cards · supply %d monasteries, %d advisors",
			v.Score[seat], v.HandSizes[seat], v.Monasteries[seat], v.Advisors[seat])
		s.close()
	}
}

// kdCards draws the face-up cards and, when the view holds it, the seat's hand.
func kdCards(s *svg, v *kardinal.View, bots []string, y int) {
	s.text(10, y+14, "start", "#1c1917", 14, "face up")
	x := 10
	draw := func(counts [kardinal.NumKinds]uint8, place string, kv ...string) {
		for k, n := range counts {
			for range n {
				ink := "#ffffff"
				if kardinal.Kind(k) == kardinal.Yellow {
					ink = "#1c1917"
				}
				s.card(x, y+22, 90, 60, kdCard[k], ink, kardinal.Kind(k).String(), append([]string{"data-place", place}, kv...)...)
				x += 96
			}
		}
	}
	draw(v.FaceUp, "face-up")
	if v.Seat >= 0 {
		x += 30
		s.text(x, y+14, "start", "#1c1917", 14, "hand of %s", seatName(v.Seat, bots))
		draw(v.Hand, "hand", "data-seat", fmt.Sprint(v.Seat))
	}
}
