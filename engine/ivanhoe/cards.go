package ivanhoe

import "fmt"

// Colour is a tournament colour, and the colour of a token.
type Colour uint8

// The five colours, in the order of the rulebook's chart.
const (
	Purple Colour = iota
	Red
	Blue
	Yellow
	Green
	NumColours
	// NoColour marks a tournament whose colour is not chosen yet.
	NoColour Colour = 0xff
)

var colourNames = [NumColours]string{"purple", "red", "blue", "yellow", "green"}

func (c Colour) String() string {
	if c < NumColours {
		return colourNames[c]
	}
	return "none"
}

// ParseColour reads a colour name.
func ParseColour(s string) (Colour, error) {
	for c, n := range colourNames {
		if n == s {
			return Colour(c), nil
		}
	}
	return NoColour, fmt.Errorf("unknown colour %q", s)
}

// Card is a kind of card. Cards of one kind are interchangeable, so the engine keeps
// hands and piles as counts per kind and displays as sequences of kinds; options name
// kinds, never copies, which keeps identical choices from being listed twice.
type Card uint8

// The 35 kinds of card: colour cards, supporters, then action cards.
const (
	Purple3 Card = iota
	Purple4
	Purple5
	Purple7
	Red3
	Red4
	Red5
	Blue2
	Blue3
	Blue4
	Blue5
	Yellow2
	Yellow3
	Yellow4
	Green1
	Squire2
	Squire3
	Maiden
	Unhorse
	ChangeWeapon
	DropWeapon
	BreakLance
	Riposte
	Dodge
	Retreat
	KnockDown
	Outmaneuver
	Charge
	Countercharge
	Disgrace
	Adapt
	Outwit
	Shield
	Stunned
	Ivanhoe
	NumCards
	// NoCard marks an empty slot.
	NoCard Card = 0xff
)

// DeckSize is the number of cards in the game.
const DeckSize = 110

// NumTokens is the number of tokens, five of each colour.
const NumTokens = 25

type cardInfo struct {
	name   string
	colour Colour // NoColour for supporters and actions
	value  int8   // printed value; 0 for actions
	count  uint8  // copies in the deck
}

var cards = [NumCards]cardInfo{
	Purple3: {"purple 3", Purple, 3, 4}, Purple4: {"purple 4", Purple, 4, 4},
	Purple5: {"purple 5", Purple, 5, 4}, Purple7: {"purple 7", Purple, 7, 2},
	Red3: {"red 3", Red, 3, 6}, Red4: {"red 4", Red, 4, 6}, Red5: {"red 5", Red, 5, 2},
	Blue2: {"blue 2", Blue, 2, 4}, Blue3: {"blue 3", Blue, 3, 4}, Blue4: {"blue 4", Blue, 4, 4},
	Blue5:   {"blue 5", Blue, 5, 2},
	Yellow2: {"yellow 2", Yellow, 2, 4}, Yellow3: {"yellow 3", Yellow, 3, 8}, Yellow4: {"yellow 4", Yellow, 4, 2},
	Green1:  {"green 1", Green, 1, 14},
	Squire2: {"squire 2", NoColour, 2, 8}, Squire3: {"squire 3", NoColour, 3, 8}, Maiden: {"maiden 6", NoColour, 6, 4},
	Unhorse: {"Unhorse", NoColour, 0, 1}, ChangeWeapon: {"Change Weapon", NoColour, 0, 1},
	DropWeapon: {"Drop Weapon", NoColour, 0, 1}, BreakLance: {"Break Lance", NoColour, 0, 1},
	Riposte: {"Riposte", NoColour, 0, 3}, Dodge: {"Dodge", NoColour, 0, 1}, Retreat: {"Retreat", NoColour, 0, 1},
	KnockDown: {"Knock Down", NoColour, 0, 2}, Outmaneuver: {"Outmaneuver", NoColour, 0, 1},
	Charge: {"Charge", NoColour, 0, 1}, Countercharge: {"Countercharge", NoColour, 0, 1},
	Disgrace: {"Disgrace", NoColour, 0, 1}, Adapt: {"Adapt", NoColour, 0, 1}, Outwit: {"Outwit", NoColour, 0, 1},
	Shield: {"Shield", NoColour, 0, 1}, Stunned: {"Stunned", NoColour, 0, 1}, Ivanhoe: {"Ivanhoe", NoColour, 0, 1},
}

func (c Card) String() string {
	if c < NumCards {
		return cards[c].name
	}
	return "no card"
}

// Colour is the card's colour, NoColour for supporters and action cards.
func (c Card) Colour() Colour { return cards[c].colour }

// Value is the printed value; 0 for action cards.
func (c Card) Value() int { return int(cards[c].value) }

// Count is the number of copies in the deck.
func (c Card) Count() int { return int(cards[c].count) }

// IsColour reports a colour card.
func (c Card) IsColour() bool { return c <= Green1 }

// IsSupporter reports a squire or maiden.
func (c Card) IsSupporter() bool { return c >= Squire2 && c <= Maiden }

// IsAction reports an action card.
func (c Card) IsAction() bool { return c >= Unhorse && c < NumCards }

// ParseCard reads a card name as String writes it.
func ParseCard(s string) (Card, error) {
	for c := Card(0); c < NumCards; c++ {
		if cards[c].name == s {
			return c, nil
		}
	}
	return NoCard, fmt.Errorf("unknown card %q", s)
}
