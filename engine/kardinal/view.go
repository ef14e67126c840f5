package kardinal

import (
	"fmt"
	"strings"

	"github.com/arena-games/arena/engine"
)

// View is what one seat may know: its own hand, the face-up pair, the pieces on the
// board, supplies, scores, pile and discard sizes, and the turn in progress. It never
// holds another seat's hand or the order of the draw pile. Per-seat arrays have
// MaxPlayers entries; only the first Players mean anything.
type View struct {
	Seat, Players int
	// Start is the seat holding the start marker; the game's last round ends with the
	// seat before it (K10).
	Start  int
	ToMove int
	Phase  Phase
	Board  *Board
	Table  Table
	// Hand counts the seat's own cards by kind.
	Hand      [NumKinds]uint8
	HandSizes [MaxPlayers]int
	FaceUp    [NumKinds]uint8
	// DrawPile is the number of cards left to draw; Discard counts the discard pile by
	// kind (played and exchanged cards are shown); Removed is the cards of each kind
	// left in the box (K1).
	DrawPile int
	Discard  [NumKinds]uint8
	Removed  int
	// Monasteries and Advisors are the pieces each seat has left in supply.
	Monasteries, Advisors [MaxPlayers]int
	Score                 [MaxPlayers]int
	// InterimDone is set once the pile has run out the first time (K8); LastRound once
	// it has run out the second time (K10).
	InterimDone, LastRound bool
	// The turn in progress: the country chosen (NoCountry before the first piece), the
	// pieces placed and cards played, and whether the country was empty before (K3).
	TurnCountry Country
	TurnPieces  int
	TurnCards   int
	TurnOpened  bool
	Decisions   int
}

var _ engine.View = (*View)(nil)

// ViewSeat is the seat the view belongs to.
func (v *View) ViewSeat() int { return v.Seat }

// View is what seat may know now. A seat outside the game gets the public part only.
func (g *Game) View(seat int) engine.View { return g.SeatView(seat) }

// SeatView is View with its concrete type.
func (g *Game) SeatView(seat int) *View {
	v := &View{
		Seat: seat, Players: int(g.players), Start: int(g.start), ToMove: g.ToMove(), Phase: g.phase,
		Board: g.board, Table: g.table, FaceUp: g.faceUp, DrawPile: int(g.pileLen), Discard: g.discard,
		Removed: int(g.removed), InterimDone: g.InterimDone(), LastRound: g.exhaustions >= 2,
		TurnCountry: g.turnCountry, TurnPieces: int(g.turnPieces), TurnCards: int(g.turnCards),
		TurnOpened: g.turnOpened, Decisions: int(g.decisions),
	}
	if seat >= 0 && seat < int(g.players) {
		v.Hand = g.hands[seat]
	}
	for s := 0; s < int(g.players); s++ {
		v.HandSizes[s] = g.handSize(s)
		v.Monasteries[s] = int(g.monSupply[s])
		v.Advisors[s] = int(g.advSupply[s])
		v.Score[s] = int(g.score[s])
	}
	return v
}

func (v *View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seat %d of %d (start %d), phase %s, seat %d to move, decision %d\n",
		v.Seat, v.Players, v.Start, v.Phase, v.ToMove, v.Decisions)
	fmt.Fprintf(&b, "hand: %s; face up: %s; pile %d, discard %d", engine.Counts(v.Hand[:], kindName), engine.Counts(v.FaceUp[:], kindName), v.DrawPile, sum(v.Discard[:]))
	if v.LastRound {
		b.WriteString(", last round")
	} else if v.InterimDone {
		b.WriteString(", after the interim scoring")
	}
	b.WriteString("\n")
	if v.TurnCountry != NoCountry {
		fmt.Fprintf(&b, "this turn: %d piece(s) in %s with %d card(s)\n", v.TurnPieces, v.TurnCountry, v.TurnCards)
	}
	for s := 0; s < v.Players; s++ {
		fmt.Fprintf(&b, "seat %d: %d points, %d cards, supply %d monasteries %d advisors\n",
			s, v.Score[s], v.HandSizes[s], v.Monasteries[s], v.Advisors[s])
	}
	for c := Country(0); c < NumCountries; c++ {
		fmt.Fprintf(&b, "%-10s monasteries %s advisors %s (cap %d), free spaces %d\n", c,
			seatCounts(v.Table.Monasteries[c][:v.Players]), seatCounts(v.Table.Advisors[c][:v.Players]),
			v.Table.AdvisorCap(c), v.Table.FreeSpaces(v.Board, c))
	}
	return b.String()
}

func sum(x []uint8) int {
	n := 0
	for _, v := range x {
		n += int(v)
	}
	return n
}

func seatCounts(c []uint8) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, "/")
}

func kindName(k int) string { return Kind(k).String() }
