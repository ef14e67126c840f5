package kardinal

import "fmt"

// MaxPlayers is the most seats the game takes (K1); per-seat arrays have this length.
const MaxPlayers = 5

// MinPlayers is the fewest seats the game takes (K1).
const MinPlayers = 3

// Country is one of the nine countries. The set is fixed by the cards; a board file
// only says where their spaces lie.
type Country uint8

// The nine countries, in the order the rulings page lists them.
const (
	Frankreich Country = iota
	Aragon
	England
	Burgund
	Lothringen
	Schwaben
	Franken
	Bayern
	Italien
	NumCountries
	// NoCountry marks "no country chosen yet".
	NoCountry Country = 0xff
)

var countryNames = [NumCountries]string{"Frankreich", "Aragon", "England", "Burgund", "Lothringen",
	"Schwaben", "Franken", "Bayern", "Italien"}

func (c Country) String() string {
	if c < NumCountries {
		return countryNames[c]
	}
	return "no country"
}

// ParseCountry reads a country name as String writes it.
func ParseCountry(s string) (Country, error) {
	for c, n := range countryNames {
		if n == s {
			return Country(c), nil
		}
	}
	return NoCountry, fmt.Errorf("unknown country %q", s)
}

// Kind is a kind of card. Cards of one kind are interchangeable, so hands and piles are
// counts per kind and options name kinds, never copies.
type Kind uint8

// The five card kinds, by colour, from the most common to the rarest.
const (
	Red    Kind = iota // Franken/Aragon, 13 cards
	Green              // Bayern/Burgund, 12 cards
	Yellow             // Lothringen/Italien, 11 cards
	Orange             // England/Schwaben, 10 cards
	Purple             // Frankreich, 9 cards
	NumKinds
)

// DeckSize is the number of cards in the box.
const DeckSize = 55

// HandSize is the hand a player refills to (K6).
const HandSize = 3

// FaceUpSize is the number of face-up cards beside the draw pile.
const FaceUpSize = 2

// Piece supplies per player (K5).
const (
	MonasteriesPerPlayer = 20
	AdvisorsPerPlayer    = 8
)

type kindInfo struct {
	name      string
	count     uint8
	countries [2]Country // the second is NoCountry for a one-country card
}

var kinds = [NumKinds]kindInfo{
	Red:    {"Franken/Aragon", 13, [2]Country{Franken, Aragon}},
	Green:  {"Bayern/Burgund", 12, [2]Country{Bayern, Burgund}},
	Yellow: {"Lothringen/Italien", 11, [2]Country{Lothringen, Italien}},
	Orange: {"England/Schwaben", 10, [2]Country{England, Schwaben}},
	Purple: {"Frankreich", 9, [2]Country{Frankreich, NoCountry}},
}

// kindOf is the one kind whose cards name each country.
var kindOf = func() (k [NumCountries]Kind) {
	for kd, info := range kinds {
		for _, c := range info.countries {
			if c != NoCountry {
				k[c] = Kind(kd)
			}
		}
	}
	return k
}()

func (k Kind) String() string {
	if k < NumKinds {
		return kinds[k].name
	}
	return "no card"
}

// Count is the number of cards of the kind in the box.
func (k Kind) Count() int { return int(kinds[k].count) }

// Names reports whether a card of this kind names country c.
func (k Kind) Names(c Country) bool {
	return k < NumKinds && (kinds[k].countries[0] == c || kinds[k].countries[1] == c)
}

// Countries lists the one or two countries a card of this kind names.
func (k Kind) Countries() []Country {
	if kinds[k].countries[1] == NoCountry {
		return kinds[k].countries[:1]
	}
	return kinds[k].countries[:]
}

// KindOf is the kind of card that names country c.
func KindOf(c Country) Kind { return kindOf[c] }

// Removed is how many cards of each kind leave the box for a player count (K1): one of
// each kind with four players, two with three.
func Removed(players int) int {
	if players >= MaxPlayers {
		return 0
	}
	return MaxPlayers - players
}
