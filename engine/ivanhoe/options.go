package ivanhoe

import "github.com/arena-games/arena/engine"

// OptionKind is engine.Option.Kind for Ivanhoe. The arguments each kind uses:
//
//	ChooseColour  A=colour                            the starter names the colour (R6)
//	PlayCard      A=card                              a colour card or supporter into the display
//	PlayAction    A=card, B=target seat, C, D         an action card; see below
//	EndTurn                                           announce the total and pass (R3)
//	Withdraw                                          leave the tournament (R4)
//	CancelAction  (none)                              play Ivanhoe on the pending action (R23)
//	LetStand      (none)                              decline to play Ivanhoe
//	KeepCard      A=display position                  Adapt: keep this card of its value (R21)
//	GiveBack      A=colour                            return a token after a maiden (R25)
//	TakeToken     A=colour                            the token chosen after a purple win (R24)
//
// PlayAction arguments by card: Unhorse and Change Weapon C=new colour; Break Lance,
// Riposte, Knock Down, Stunned B=target; Dodge B=target, C=position in the target's
// display; Retreat C=position in one's own display; Outwit B=target, C=one's own face-up
// card, D=the target's face-up card (a display position, or FaceShield / FaceStunned).
// Unused arguments are NoArg.
type OptionKind uint8

// Option kinds.
const (
	ChooseColour OptionKind = iota + 1
	PlayCard
	PlayAction
	EndTurn
	Withdraw
	CancelAction
	LetStand
	KeepCard
	GiveBack
	TakeToken
)

// Outwit positions that name the face-up cards kept beside a display.
const (
	FaceShield  = -2
	FaceStunned = -3
)

// NoArg fills unused option arguments.
const NoArg = -1

var optionKindNames = [...]string{"", "choose colour", "play card", "play action", "end turn", "withdraw",
	"cancel with Ivanhoe", "let stand", "keep card", "give back token", "take token"}

func (k OptionKind) String() string {
	if int(k) < len(optionKindNames) && k > 0 {
		return optionKindNames[k]
	}
	return "unknown"
}

func opt(k OptionKind, a, b, c, d int) engine.Option {
	return engine.Option{Kind: uint8(k), A: int16(a), B: int16(b), C: int16(c), D: int16(d)}
}

// Phase says what kind of decision is pending.
type Phase uint8

// Phases.
const (
	PhaseChooseColour Phase = iota // the starter names the tournament colour
	PhaseTurn                      // the player on turn plays, ends the turn or withdraws
	PhaseReaction                  // an Ivanhoe holder may cancel the pending action
	PhaseAdapt                     // a player chooses which card of a value to keep
	PhaseGiveBack                  // a withdrawing player with a maiden returns a token
	PhaseTakeToken                 // a purple winner chooses a token colour
	PhaseOver                      // the game has ended
)

var phaseNames = [...]string{"choose colour", "turn", "reaction", "adapt", "give back", "take token", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// EventKind is engine.Event.Kind for Ivanhoe. Seat is the acting seat; A..C as listed.
type EventKind uint8

// Event kinds.
const (
	EvDeal          EventKind = iota + 1 // Seat was dealt A cards (public); private: EvDrawCard per card
	EvDraw                               // Seat drew a card (public)
	EvDrawCard                           // Seat drew card A (Seat only)
	EvReshuffle                          // the discard pile, A cards, became the draw pile
	EvStarter                            // Seat starts tournament number A
	EvRevealHand                         // Seat cannot start and shows card A, B copies (one per kind held)
	EvColour                             // Seat chose colour A
	EvPlay                               // Seat played card A into the display
	EvAction                             // Seat played action A at target B with argument C
	EvCancel                             // Seat cancelled the pending action A with Ivanhoe
	EvColourChange                       // the tournament colour became A
	EvDiscardFrom                        // card A left Seat's display for the discard pile
	EvMoveCard                           // card A moved from Seat's display to seat B's display
	EvToHand                             // card A went from Seat's display to Seat's hand
	EvKnockDown                          // Seat took a card from seat B's hand (public)
	EvKnockDownCard                      // Seat took card A from seat B's hand (Seat and B only)
	EvSwap                               // Outwit: Seat gave face-up card A and took card B from seat C
	EvKeep                               // Adapt: Seat kept card A
	EvEndTurn                            // Seat ended the turn announcing total A
	EvWithdraw                           // Seat withdrew
	EvGiveBack                           // Seat returned a token of colour A
	EvWinTournament                      // Seat won the tournament in colour A
	EvToken                              // Seat took a token of colour A
	EvNoToken                            // Seat won in colour A but already holds it
	EvWinGame                            // Seat won the game
	EvAdjudicated                        // the decision bound ended the game
)
