package kardinal

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/engine"
)

// The words of options are built without fmt: a replay puts every decision into words
// while the game is played.

// aCard is "a Frankreich card", "an England/Schwaben card".
func aCard(k Kind) string {
	if k >= NumKinds {
		return "an unknown card"
	}
	if k.String()[0] == 'E' {
		return "an " + k.String() + " card"
	}
	return "a " + k.String() + " card"
}

func payString(k Kind, joker bool) string {
	if joker {
		return "a joker of two " + k.String() + " cards"
	}
	return aCard(k)
}

func fromString(from int) string {
	if from == FromPile {
		return "the top of the draw pile"
	}
	if from >= 0 && from < int(NumKinds) {
		return "the face-up " + Kind(from).String() + " card"
	}
	return "nowhere"
}

func spaceString(b *Board, space int) string {
	if b == nil || space < 0 || space >= b.Spaces() {
		return "unknown space " + strconv.Itoa(space+1)
	}
	return "space " + strconv.Itoa(space+1)
}

// Describe puts an option into words.
func (g *Game) Describe(o engine.Option) string {
	switch OptionKind(o.Kind) {
	case Place:
		p, _ := AsPlacement(o)
		if p.Country >= NumCountries || p.Kind >= NumKinds {
			return "an unknown placement"
		}
		if p.Advisor() {
			return "place an advisor in " + p.Country.String() + ", paying " + payString(p.Kind, p.Joker)
		}
		return "place a monastery in " + p.Country.String() + " on " + spaceString(g.board, p.Space) + ", paying " + payString(p.Kind, p.Joker)
	case Stop:
		return "place no second piece"
	case Take:
		return "take " + fromString(int(o.A))
	case Exchange:
		if o.A < 0 || o.A >= int16(NumKinds) {
			return "an unknown exchange"
		}
		return "exchange " + aCard(Kind(o.A)) + " for " + fromString(int(o.B))
	case Pass:
		return "pass: nothing can be placed or exchanged"
	}
	return fmt.Sprintf("unknown option kind %d", o.Kind)
}

func seatString(s int8) string { return "seat " + strconv.Itoa(int(s)) }

// DescribeEvent puts an event into words.
func (g *Game) DescribeEvent(e engine.Event) string {
	who := seatString(e.Seat)
	kind := func(x int16) string {
		if x < 0 {
			return "an unknown card"
		}
		return aCard(Kind(x))
	}
	country := func(x int16) string {
		if x < 0 || x >= int16(NumCountries) {
			return "an unknown country"
		}
		return Country(x).String()
	}
	switch EventKind(e.Kind) {
	case EvStart:
		return fmt.Sprintf("%s holds the start marker; %d card(s) of each kind stay in the box", who, e.A)
	case EvDeal:
		return who + " is dealt a card"
	case EvDraw:
		return who + " draws from the pile"
	case EvDrawCard:
		return fmt.Sprintf("%s draws %s", who, kind(e.A))
	case EvFaceUp:
		return fmt.Sprintf("%s is turned face up", kind(e.A))
	case EvPlace:
		pay := payString(Kind(e.C/2), e.C%2 == 1)
		if e.B == NoSpace {
			return fmt.Sprintf("%s places an advisor in %s, paying %s", who, country(e.A), pay)
		}
		return fmt.Sprintf("%s places a monastery in %s on %s, paying %s", who, country(e.A), spaceString(g.board, int(e.B)), pay)
	case EvTakeFaceUp:
		if e.A < 0 || e.A >= int16(NumKinds) {
			return who + " takes an unknown face-up card"
		}
		return fmt.Sprintf("%s takes the face-up %s card", who, Kind(e.A))
	case EvDiscard:
		return fmt.Sprintf("%s exchanges %s", who, kind(e.A))
	case EvPass:
		return who + " can neither place nor exchange and passes"
	case EvInterim:
		return "the draw pile has run out: interim scoring of the monasteries"
	case EvCountryScore:
		return fmt.Sprintf("%s scores %d for the monasteries of %s", who, e.A, country(e.B))
	case EvReshuffle:
		return fmt.Sprintf("the discard pile (%d cards) is shuffled into a new draw pile", e.A)
	case EvLastRound:
		return "the draw pile has run out again: the round is played to its end"
	case EvAllianceScore:
		return fmt.Sprintf("%s scores %d for alliance %d", who, e.A, e.B)
	case EvChainScore:
		return fmt.Sprintf("%s scores %d for a chain of %d monasteries", who, e.A, e.A)
	case EvGameOver:
		if e.A == 1 {
			return "nobody can place any piece: the game ends; final scoring"
		}
		return "the round is over: the game ends; final scoring"
	case EvAdjudicated:
		return fmt.Sprintf("the game is stopped after %d decisions and judged on the score so far", e.A)
	}
	return fmt.Sprintf("unknown event kind %d", e.Kind)
}
