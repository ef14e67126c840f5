package ninjas

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/arena-games/arena/engine"
)

// OptionDeck is the name of the option that plays another deck: its text is a deck
// file, one "KIND COUNT" line per card kind (kinds not named have no cards; "#" starts
// a comment), 95 cards in all, as Deck.String names the kinds.
const OptionDeck = "deck"

// OptionSpecs are the options the game takes.
func OptionSpecs() []engine.OptionSpec {
	return []engine.OptionSpec{{Name: OptionDeck, Usage: "a deck file (lines \"KIND COUNT\", 95 cards) instead of the default deck"}}
}

// ParseDeck reads a deck file. Errors name the line.
func ParseDeck(text string) (Deck, error) {
	var d Deck
	seen := [NumKinds]int{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(strings.SplitN(sc.Text(), "#", 2)[0])
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return d, fmt.Errorf("deck line %d: want \"KIND COUNT\", got %q", line, strings.Join(f, " "))
		}
		k, err := ParseKind(f[0])
		if err != nil {
			return d, fmt.Errorf("deck line %d: %w", line, err)
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 {
			return d, fmt.Errorf("deck line %d: count %q is not a number of cards", line, f[1])
		}
		if seen[k] != 0 {
			return d, fmt.Errorf("deck line %d: %s again (first on line %d)", line, k, seen[k])
		}
		seen[k], d[k] = line, n
	}
	return d, d.Validate()
}

// PrepareOptions reads the deck once for every game started with these options.
func PrepareOptions(opts engine.Options) (engine.Starter, error) {
	deck := DefaultDeck()
	if text, ok := opts[OptionDeck]; ok {
		var err error
		if deck, err = ParseDeck(text); err != nil {
			return nil, err
		}
	}
	return func(seed uint64, players int) (engine.Game, error) {
		g, err := NewWithDeck(seed, players, deck)
		if err != nil {
			return nil, err
		}
		return g, nil
	}, nil
}
