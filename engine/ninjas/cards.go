package ninjas

import (
	"fmt"
	"strings"
)

// Kind is a kind of card. Cards of one kind are interchangeable, so hands and piles are
// counts per kind, and options name kinds, never copies.
type Kind uint8

// The sixteen kinds, in the order the rulings list them (N1).
const (
	Peasant Kind = iota
	Soldier
	Knight
	King
	Castle
	Archer
	Minstrel
	Dragon
	Catapult
	Ninja
	Ladder
	Highwayman
	Princess
	Executioner
	Traitor
	Jester
	NumKinds
	// NoKind marks an empty slot (no fortification standing, no card pending).
	NoKind Kind = 0xff
)

// DeckSize is the number of cards in the game.
const DeckSize = 95

var kindNames = [NumKinds]string{"Peasant", "Soldier", "Knight", "King", "Castle", "Archer",
	"Minstrel", "Dragon", "Catapult", "Ninja", "Ladder", "Highwayman", "Princess",
	"Executioner", "Traitor", "Jester"}

func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "no card"
}

// ParseKind reads a kind name as String writes it.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if strings.EqualFold(n, s) {
			return Kind(k), nil
		}
	}
	return NoKind, fmt.Errorf("unknown card kind %q", s)
}

// Value is the strength of Peasant (1), Soldier (2), Knight (3) and King (4): the gems
// they take in an attack or protect in a response. Ninja and Dragon take 2 but have no
// response value, so they are not counted here.
func (k Kind) Value() int {
	if k <= King {
		return int(k) + 1
	}
	return 0
}

// IsValue reports Peasant, Soldier, Knight and King: the cards that attack and respond
// with a strength.
func (k Kind) IsValue() bool { return k <= King }

// takes is the number of gems an unanswered attack card takes (before the cap by the
// defender's gems): the strength of a value card, 2 for Ninja and Dragon, 0 for the
// cards that only break fortifications.
func (k Kind) takes() int {
	switch {
	case k.IsValue():
		return k.Value()
	case k == Ninja || k == Dragon:
		return 2
	}
	return 0
}

// Deck is a deck's composition: the number of cards of each kind. The rulebook's counts
// were lost with its pictures; DefaultDeck is the rulings' documented choice (N1), and
// NewWithDeck plays any other composition of 95 cards.
type Deck [NumKinds]int

// DefaultDeck is the composition of ruling N1 (a copy: the rulings' table cannot be
// changed from outside).
func DefaultDeck() Deck { return defaultDeck }

var defaultDeck = Deck{
	Peasant: 17, Soldier: 14, Knight: 8, King: 4,
	Castle: 6, Archer: 6, Minstrel: 4,
	Dragon: 3, Catapult: 4, Ninja: 4, Ladder: 5,
	Highwayman: 5, Princess: 4, Executioner: 4, Traitor: 5,
	Jester: 2,
}

// Total is the number of cards in the deck.
func (d Deck) Total() int {
	n := 0
	for _, c := range d {
		n += c
	}
	return n
}

// Validate reports why a deck cannot be played: a negative count, or a total other than
// the 95 cards the game is played with.
func (d Deck) Validate() error {
	for k, c := range d {
		if c < 0 {
			return fmt.Errorf("deck: %d cards of kind %s, want at least 0", c, Kind(k))
		}
	}
	if n := d.Total(); n != DeckSize {
		return fmt.Errorf("deck: %d cards in all, want %d", n, DeckSize)
	}
	return nil
}

func (d Deck) String() string {
	parts := make([]string, 0, NumKinds)
	for k, c := range d {
		parts = append(parts, fmt.Sprintf("%s %d", Kind(k), c))
	}
	return strings.Join(parts, ", ")
}

// Fort is a fortification slot of a kingdom: at most one Castle, one Archer and one
// Minstrel stand in front of a player's gems (N5).
type Fort uint8

// Fortification slots.
const (
	FortCastle Fort = iota
	FortArcher
	FortMinstrel
	NumForts
)

// fortOf maps a fortifying kind to its slot.
func fortOf(k Kind) Fort {
	switch k {
	case Castle:
		return FortCastle
	case Archer:
		return FortArcher
	}
	return FortMinstrel
}

// fortKinds are the kinds that fortify, in slot order.
var fortKinds = [NumForts]Kind{Castle, Archer, Minstrel}

// attackKinds are the kinds that can be played as attack cards, in option order.
var attackKinds = [...]Kind{Peasant, Soldier, Knight, King, Archer, Ladder, Catapult, Dragon, Ninja}

// responseKinds are the kinds that can be played as responses, in option order.
var responseKinds = [...]Kind{Peasant, Soldier, Knight, King, Minstrel, Princess, Executioner, Traitor}
