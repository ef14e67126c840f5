// Package table draws a game's table as SVG from one point of view's view: the cards,
// pieces and counters that view holds, laid out the way the game's rulebook lays out its
// components (a schematic where the rulebook leaves it open), with cards and pieces
// named as the engines print them. It draws only what the view holds, so a drawing
// never shows a card its point of view did not know: a public view has no hand to draw.
//
// Every drawn card or piece is an element with a class naming what it is and data
// attributes naming it ("card", data-card, data-seat, data-place), so that a page can
// style it and a test can count it.
package table

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
)

// Draw renders v, a view of one of the arena's games, as a standalone SVG document.
// bots names the seats (a name per seat, or nil for "seat N").
func Draw(v engine.View, bots []string) (string, error) {
	switch v := v.(type) {
	case *ivanhoe.View:
		return drawIvanhoe(v, bots), nil
	case *kardinal.View:
		return drawKardinal(v, bots), nil
	case *ninjas.View:
		return drawNinjas(v, bots), nil
	}
	return "", fmt.Errorf("no drawing for a view of type %T", v)
}

// seatName is a seat's label: its number and its bot, when known.
func seatName(seat int, bots []string) string {
	if seat < len(bots) {
		return fmt.Sprintf("seat %d · %s", seat, bots[seat])
	}
	return fmt.Sprintf("seat %d", seat)
}

// seatColours tell seats apart where pieces carry a seat's colour (Kardinal's
// monasteries and advisors); none of them is a card colour of that game.
var seatColours = [...]string{"#2563eb", "#db2777", "#1c1917", "#0d9488", "#78716c", "#a3e635", "#7c3aed", "#f5f5f4"}

// sum is the number of cards in a pile counted by kind.
func sum(counts []uint8) int {
	n := 0
	for _, c := range counts {
		n += int(c)
	}
	return n
}
