package ninjas

import (
	"fmt"
	"strconv"

	"github.com/arena-games/arena/engine"
)

// The words of options are built without fmt: a replay puts every decision into words
// while the game is played.

// article puts "a" or "an" before a card name.
func article(k Kind) string {
	switch k {
	case Archer, Executioner:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// cardsPhrase names played cards: "a Knight", "3 Peasants", "a Jester named Knight".
func cardsPhrase(k Kind, count int, jester bool) string {
	switch {
	case jester:
		return "a Jester named " + k.String()
	case count > 1:
		return strconv.Itoa(count) + " " + k.String() + "s"
	}
	return article(k)
}

func gemsPhrase(n int) string {
	if n == 1 {
		return "1 gem"
	}
	return strconv.Itoa(n) + " gems"
}

// Describe puts an option of the pending decision into words.
func (g *Game) Describe(o engine.Option) string {
	p := ReadOption(o)
	switch p.Kind {
	case PlayAttack:
		return "attack seat " + strconv.Itoa(p.Target) + " with " + cardsPhrase(p.Card, p.Count, p.Jester)
	case PlayFortify:
		return "fortify with " + cardsPhrase(p.Card, 1, p.Jester)
	case DiscardCard:
		return "discard " + article(p.Card)
	case StopTurn:
		switch g.phase {
		case PhaseAttacking:
			return "stop attacking and end the turn"
		case PhaseFortifying:
			return "stop fortifying and end the turn"
		}
		return "end the turn (nothing to discard)"
	case PlayResponse:
		return "respond with " + cardsPhrase(p.Card, p.Count, p.Jester)
	case NoResponse:
		return "play no response"
	case PlayHighwayman:
		return "play " + cardsPhrase(Highwayman, 1, p.Jester) + " to take the " + gemsPhrase(g.winGems)
	case LetGemsGo:
		return "let the gems go"
	}
	return fmt.Sprintf("unknown option %+v", o)
}

var fortNames = [NumForts]string{"Castle", "Archer", "Minstrel"}

// DescribeEvent puts an event of the log into words: the game's readable log.
func (g *Game) DescribeEvent(e engine.Event) string {
	s, a, b, c := int(e.Seat), int(e.A), int(e.B), int(e.C)
	k := Kind(a)
	jester := c&JesterFlag != 0
	count := c &^ JesterFlag
	switch EventKind(e.Kind) {
	case EvFirst:
		return fmt.Sprintf("seat %d takes the first turn", s)
	case EvTurn:
		return fmt.Sprintf("turn %d: seat %d", a, s)
	case EvDraw:
		if a == 1 {
			return fmt.Sprintf("seat %d draws a card", s)
		}
		return fmt.Sprintf("seat %d draws %d cards", s, a)
	case EvDrawCard:
		return fmt.Sprintf("seat %d draws %s", s, article(k))
	case EvReshuffle:
		return fmt.Sprintf("the discard pile is shuffled into a new draw pile of %d cards", a)
	case EvMinstrelLeaves:
		return fmt.Sprintf("seat %d discards the Minstrel standing before their kingdom", s)
	case EvAttack:
		return fmt.Sprintf("seat %d attacks seat %d with %s", s, b, cardsPhrase(k, count, jester))
	case EvFortify:
		return fmt.Sprintf("seat %d fortifies with %s", s, cardsPhrase(k, 1, jester))
	case EvDiscard:
		return fmt.Sprintf("seat %d discards %s", s, article(k))
	case EvStop:
		return fmt.Sprintf("seat %d ends the turn", s)
	case EvRespond:
		return fmt.Sprintf("seat %d responds with %s", s, cardsPhrase(k, count, jester))
	case EvDecline:
		return fmt.Sprintf("seat %d does not respond", s)
	case EvTraitor:
		return fmt.Sprintf("the %s turns traitor and now attacks seat %d", k, b)
	case EvPrincess:
		if jester {
			return fmt.Sprintf("seat %d's Princess takes the attacking Jester (named %s) into their hand", s, k)
		}
		return fmt.Sprintf("seat %d's Princess takes the attacking %s into their hand", s, k)
	case EvExecuted:
		return fmt.Sprintf("the attacking %s is executed and the attack ends", k)
	case EvDestroy:
		name := "?"
		if b >= 0 && b < int(NumForts) {
			name = fortNames[b]
		}
		if k == Jester {
			return fmt.Sprintf("seat %d loses the Jester standing as their %s", s, name)
		}
		return fmt.Sprintf("seat %d loses their %s", s, name)
	case EvLadder:
		return fmt.Sprintf("seat %d sets a Ladder against seat %d's Castle", s, b)
	case EvGems:
		return fmt.Sprintf("seat %d takes %s from seat %d", s, gemsPhrase(a), b)
	case EvNoGems:
		return fmt.Sprintf("no gems move from seat %d; the %s is discarded", s, k)
	case EvHighwayman:
		return fmt.Sprintf("seat %d plays %s and takes the %s from seat %d", s, cardsPhrase(Highwayman, 1, jester), gemsPhrase(a), b)
	case EvLetGo:
		return fmt.Sprintf("seat %d plays no Highwayman", s)
	case EvEndTurn:
		return fmt.Sprintf("seat %d's turn ends", s)
	case EvWin:
		return fmt.Sprintf("seat %d holds %s and wins", s, gemsPhrase(a))
	case EvAdjudicated:
		return fmt.Sprintf("after %d turns the game is decided by gems", a)
	}
	return fmt.Sprintf("unknown event %+v", e)
}
