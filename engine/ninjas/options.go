package ninjas

import "github.com/arena-games/arena/engine"

// OptionKind is engine.Option.Kind for Of Knights and Ninjas. The arguments each kind
// uses (unused ones are NoArg):
//
//	PlayAttack     A=kind played, B=target seat, C=number of cards, D=1 for a Jester
//	PlayFortify    A=kind played (Castle, Archer, Minstrel), D=1 for a Jester
//	DiscardCard    A=kind discarded (a Jester is discarded as a Jester)
//	StopTurn       end the turn: stop attacking or fortifying, or pass with an empty hand
//	PlayResponse   A=kind played, C=number of cards, D=1 for a Jester
//	NoResponse     no response to the pending attack card (N9)
//	PlayHighwayman take the gems that just moved (N10): A=Highwayman, C=1, D=1 for a Jester
//	LetGemsGo      play no Highwayman now
//
// "Kind played" is the kind a Jester is named as when D=1 (N11); C is more than 1 only
// for a group of Peasants (a revolt). A Jester always plays alone, as one card.
type OptionKind uint8

// Option kinds. SpecialAction keeps the rulebook's slot for special action cards (N3);
// no kind of the game is one, so it is never listed.
const (
	PlayAttack OptionKind = iota + 1
	PlayFortify
	DiscardCard
	StopTurn
	PlayResponse
	NoResponse
	PlayHighwayman
	LetGemsGo
	SpecialAction
)

// NoArg fills unused option arguments.
const NoArg = -1

var optionKindNames = [...]string{"", "attack", "fortify", "discard", "stop", "respond", "no response",
	"highwayman", "let the gems go", "special action"}

func (k OptionKind) String() string {
	if k > 0 && int(k) < len(optionKindNames) {
		return optionKindNames[k]
	}
	return "unknown"
}

// addOption appends an option to the list.
func (g *Game) addOption(k OptionKind, a, b, c, d int) {
	o := grow(&g.opts)
	o.Kind, o.A, o.B, o.C, o.D = uint8(k), int16(a), int16(b), int16(c), int16(d)
}

// grow lengthens *s by one and returns the new slot, for the caller to write field by
// field: a struct literal appended is built on the stack in narrow stores and copied
// out in wide loads, which wait for them (the search's play-outs append an option or an
// event at every step).
func grow[T any](s *[]T) *T {
	n := len(*s)
	if n == cap(*s) {
		var zero T
		*s = append(*s, zero)
	} else {
		*s = (*s)[:n+1]
	}
	return &(*s)[n]
}

// Play is an option read back in the game's words.
type Play struct {
	Kind   OptionKind
	Card   Kind // the kind played (what a Jester is named as); NoKind if none
	Target int  // Attack: the rival attacked; NoArg otherwise
	Count  int  // cards played: more than 1 only for a revolt of Peasants
	Jester bool // the card is a Jester named as Card
}

// ReadOption decodes an option of this game.
func ReadOption(o engine.Option) Play {
	var p Play
	p.Read(o)
	return p
}

// Read decodes an option of this game into p, field by field: a bot that scores many
// options reads each into one Play and passes it on by pointer, which spares the
// stack copies of a returned struct in its inner loop.
func (p *Play) Read(o engine.Option) {
	p.Kind, p.Card, p.Target, p.Count, p.Jester = OptionKind(o.Kind), NoKind, NoArg, 0, o.D == 1
	switch p.Kind {
	case PlayAttack, PlayResponse:
		p.Card, p.Count = Kind(o.A), int(o.C)
		if p.Kind == PlayAttack {
			p.Target = int(o.B)
		}
	case PlayFortify, DiscardCard:
		p.Card, p.Count = Kind(o.A), 1
	case PlayHighwayman:
		p.Card, p.Count = Highwayman, 1
	}
}

// Phase says what kind of decision is pending.
type Phase uint8

// Phases.
const (
	PhaseAction     Phase = iota // the player on turn attacks, fortifies or discards (N3)
	PhaseAttacking               // the attacker plays another attack card at the same rival or stops (N4)
	PhaseFortifying              // the player plays another fortify card or stops (N5)
	PhaseRespond                 // the seat hit by the pending attack card responds or declines (N9)
	PhaseHighwayman              // a seat may take the gems that just moved (N10)
	PhaseOver                    // the game has ended
)

var phaseNames = [...]string{"action", "attacking", "fortifying", "respond", "highwayman", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// EventKind is engine.Event.Kind for Of Knights and Ninjas. Seat is the acting seat;
// A..C as listed. Flagged C values carry JesterFlag when the card was a Jester named
// as A. Every event is public except EvDrawCard, which only the drawer sees.
type EventKind uint8

// Event kinds.
const (
	EvFirst          EventKind = iota + 1 // Seat takes the first turn (N2)
	EvTurn                                // Seat's turn A begins
	EvDraw                                // Seat drew A cards
	EvDrawCard                            // Seat drew card A (Seat only)
	EvReshuffle                           // the discard pile, A cards, became the draw pile
	EvMinstrelLeaves                      // Seat's standing Minstrel (card A) is discarded at the start of their turn
	EvAttack                              // Seat attacks seat B with A, C = count | JesterFlag
	EvFortify                             // Seat fortifies with A, C = JesterFlag or 0
	EvDiscard                             // Seat discards A
	EvStop                                // Seat ends the turn
	EvRespond                             // Seat responds with A, C = count | JesterFlag
	EvDecline                             // Seat does not respond
	EvTraitor                             // the attacking card A now hits seat B
	EvPrincess                            // Seat takes the attacking card A into hand (a Jester if C = JesterFlag)
	EvExecuted                            // the attacking card A is discarded; the turn ends
	EvDestroy                             // Seat's fortification (card A standing in slot B) is discarded
	EvLadder                              // Seat's Ladder stands against seat B for the turn
	EvGems                                // Seat receives A gems from seat B
	EvNoGems                              // no gems move; the attacking card A and any response are discarded
	EvHighwayman                          // Seat takes the A gems from seat B, C = JesterFlag or 0
	EvLetGo                               // Seat plays no Highwayman
	EvEndTurn                             // Seat's turn ends
	EvWin                                 // Seat holds A gems and wins (N12)
	EvAdjudicated                         // the turn bound ended the game (N13)
)

// JesterFlag marks, in an event's C, a card that was a Jester named as the event's kind.
const JesterFlag = 1 << 8
