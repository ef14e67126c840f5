package kardinal

import "github.com/arena-games/arena/engine"

// OptionKind is engine.Option.Kind for Kardinal und König. The arguments each kind uses:
//
//	Place     A=country, B=space (0-based) or NoSpace for an advisor,
//	          C=card kind paid with, D=1 for a joker (two cards of kind C), 0 for one card
//	Stop      (none)                     place no second piece this turn
//	Take      A=card kind taken from the face-up pair, or FromPile
//	Exchange  A=card kind discarded, B=card kind taken from the face-up pair or FromPile
//	Pass      (none)                     only when nothing can be placed or exchanged
//
// A turn is: a first Place, then (when K3 allows a second piece) a second Place or Stop,
// then one Take per card missing from a full hand (K6). Or it is one Exchange (K7).
// Unused arguments are NoArg.
type OptionKind uint8

// Option kinds.
const (
	Place OptionKind = iota + 1
	Stop
	Take
	Exchange
	Pass
)

// NoArg fills unused option arguments.
const NoArg = -1

// FromPile is the "take" argument naming the draw pile rather than a face-up card.
const FromPile = -1

var optionKindNames = [...]string{"", "place", "stop", "take", "exchange", "pass"}

func (k OptionKind) String() string {
	if int(k) < len(optionKindNames) && k > 0 {
		return optionKindNames[k]
	}
	return "unknown"
}

func opt(k OptionKind, a, b, c, d int) engine.Option {
	return engine.Option{Kind: uint8(k), A: int16(a), B: int16(b), C: int16(c), D: int16(d)}
}

// PlaceOption builds a Place option: a monastery on space (0-based) or, with space ==
// NoSpace, an advisor in country; paid with one card of kind, or two when joker.
func PlaceOption(c Country, space int, kind Kind, joker bool) engine.Option {
	j := 0
	if joker {
		j = 1
	}
	return opt(Place, int(c), space, int(kind), j)
}

// TakeOption builds a Take option; from is a face-up kind or FromPile.
func TakeOption(from int) engine.Option { return opt(Take, from, NoArg, NoArg, NoArg) }

// ExchangeOption builds an Exchange option; from is a face-up kind or FromPile.
func ExchangeOption(discard Kind, from int) engine.Option {
	return opt(Exchange, int(discard), from, NoArg, NoArg)
}

// StopOption and PassOption build the argument-less options.
func StopOption() engine.Option { return opt(Stop, NoArg, NoArg, NoArg, NoArg) }

// PassOption builds the Pass option.
func PassOption() engine.Option { return opt(Pass, NoArg, NoArg, NoArg, NoArg) }

// Placement is a Place option read back.
type Placement struct {
	Country Country
	Space   int // NoSpace for an advisor
	Kind    Kind
	Joker   bool
}

// Advisor reports an advisor placement.
func (p Placement) Advisor() bool { return p.Space == NoSpace }

// Cards is the number of cards the placement costs.
func (p Placement) Cards() int {
	if p.Joker {
		return 2
	}
	return 1
}

// AsPlacement reads a Place option; ok is false for any other kind.
func AsPlacement(o engine.Option) (p Placement, ok bool) {
	if OptionKind(o.Kind) != Place {
		return p, false
	}
	return Placement{Country(o.A), int(o.B), Kind(o.C), o.D == 1}, true
}

// Phase says what kind of decision is pending.
type Phase uint8

// Phases.
const (
	PhaseTurn   Phase = iota // place a first piece, exchange a card, or pass
	PhaseSecond              // place a second piece in the same country, or stop
	PhaseRefill              // take cards until the hand is full again
	PhaseOver                // the game has ended
)

var phaseNames = [...]string{"turn", "second piece", "refill", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// EventKind is engine.Event.Kind for Kardinal und König. Seat is the seat the event is
// about (NoSeat when none); A..C as listed.
type EventKind uint8

// Event kinds.
const (
	EvStart         EventKind = iota + 1 // Seat starts and keeps the start marker; A cards of each kind were removed (K1)
	EvDeal                               // Seat was dealt a card (public); the card itself is EvDrawCard
	EvDraw                               // Seat took the top card of the draw pile (public)
	EvDrawCard                           // Seat got card kind A from the pile (Seat only)
	EvFaceUp                             // card kind A was turned face up from the pile (public)
	EvPlace                              // Seat placed in country A on space B (NoSpace: an advisor), paying C (kind*2 + joker)
	EvTakeFaceUp                         // Seat took the face-up card of kind A (public)
	EvDiscard                            // Seat discarded card kind A to exchange it (public)
	EvPass                               // Seat could neither place nor exchange
	EvInterim                            // the draw pile ran out the first time: interim scoring (K8)
	EvCountryScore                       // Seat scored A points for the monasteries of country B
	EvReshuffle                          // the discard pile, A cards, became the new draw pile
	EvLastRound                          // the draw pile ran out the second time: the round is finished (K10)
	EvAllianceScore                      // Seat scored A points for alliance B
	EvChainScore                         // Seat scored A points for a chain of A monasteries
	EvGameOver                           // the game ended; A=1 when no one could place any more
	EvAdjudicated                        // the decision bound ended the game (K14)
)
