package protocol

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol/botpb"
)

// Kardinal und König's views travel as KardinalView (kardinal.proto). The board travels
// by name in the view and in full once, as the match's "board" option at its start; a
// Go bot decodes its views on that board, and a view naming another board is refused.
func init() {
	RegisterCodec(Codec{Game: "kardinal", EncodeView: encodeKardinal,
		DecodeView: decodeKardinalOn(kardinal.DefaultBoard()), ForOptions: kardinalDecoder})
}

func kardinalDecoder(opts engine.Options) (func(*botpb.View) (engine.View, error), error) {
	b, err := kardinal.BoardOf(opts)
	if err != nil {
		return nil, fmt.Errorf("kardinal: the match's board option: %w", err)
	}
	return decodeKardinalOn(b), nil
}

func encodeKardinal(ev engine.View) (*botpb.View, error) {
	v, ok := ev.(*kardinal.View)
	if !ok {
		return nil, fmt.Errorf("kardinal: view of type %T", ev)
	}
	if v.Board == nil {
		return nil, fmt.Errorf("kardinal: view without a board")
	}
	n := min(max(v.Players, 0), kardinal.MaxPlayers)
	m := &botpb.KardinalView{
		Seat: int32(v.Seat), Players: int32(v.Players), Start: int32(v.Start), ToMove: int32(v.ToMove),
		Phase: botpb.KardinalPhase(v.Phase), Board: v.Board.Name(),
		Owner: counts(v.Table.Owner[:v.Board.Spaces()]), Hand: counts(v.Hand[:]), HandSizes: ints32(v.HandSizes[:n]),
		FaceUp: counts(v.FaceUp[:]), DrawPile: int32(v.DrawPile), Discard: counts(v.Discard[:]), Removed: int32(v.Removed),
		MonasteriesLeft: ints32(v.Monasteries[:n]), AdvisorsLeft: ints32(v.Advisors[:n]), Score: ints32(v.Score[:n]),
		InterimDone: v.InterimDone, LastRound: v.LastRound, TurnCountry: botpb.KardinalCountry(v.TurnCountry),
		TurnPieces: int32(v.TurnPieces), TurnCards: int32(v.TurnCards), TurnOpened: v.TurnOpened, Decisions: int32(v.Decisions),
	}
	for c := 0; c < int(kardinal.NumCountries); c++ {
		m.Monasteries = append(m.Monasteries, counts(v.Table.Monasteries[c][:n])...)
		m.Advisors = append(m.Advisors, counts(v.Table.Advisors[c][:n])...)
	}
	return &botpb.View{Game: &botpb.View_Kardinal{Kardinal: m}}, nil
}

// decodeKardinalOn decodes views of matches played on board.
func decodeKardinalOn(board *kardinal.Board) func(*botpb.View) (engine.View, error) {
	return func(pv *botpb.View) (engine.View, error) { return decodeKardinal(pv, board) }
}

func decodeKardinal(pv *botpb.View, board *kardinal.Board) (engine.View, error) {
	m := pv.GetKardinal()
	if m == nil {
		return nil, fmt.Errorf("kardinal: the view holds no KardinalView")
	}
	if m.Board != board.Name() {
		return nil, fmt.Errorf("kardinal view: board %q, but the match started on %q", m.Board, board.Name())
	}
	n := int(m.Players)
	perSeat := [][]int32{m.HandSizes, m.MonasteriesLeft, m.AdvisorsLeft, m.Score}
	switch {
	case n < 1 || n > kardinal.MaxPlayers:
		return nil, fmt.Errorf("kardinal view: %d players", n)
	case len(m.Owner) != board.Spaces():
		return nil, fmt.Errorf("kardinal view: %d spaces, the board has %d", len(m.Owner), board.Spaces())
	case len(m.Monasteries) != int(kardinal.NumCountries)*n || len(m.Advisors) != int(kardinal.NumCountries)*n:
		return nil, fmt.Errorf("kardinal view: %d/%d pieces per country and seat, want %d", len(m.Monasteries), len(m.Advisors), int(kardinal.NumCountries)*n)
	case m.TurnCountry != botpb.KardinalCountry_KARDINAL_NO_COUNTRY && (m.TurnCountry < 0 || int(m.TurnCountry) >= int(kardinal.NumCountries)):
		return nil, fmt.Errorf("kardinal view: country %d", m.TurnCountry)
	}
	for _, l := range perSeat {
		if len(l) != n {
			return nil, fmt.Errorf("kardinal view: a per-seat list of %d entries for %d players", len(l), n)
		}
	}
	v := &kardinal.View{
		Seat: int(m.Seat), Players: n, Start: int(m.Start), ToMove: int(m.ToMove), Phase: kardinal.Phase(m.Phase), Board: board,
		DrawPile: int(m.DrawPile), Removed: int(m.Removed), InterimDone: m.InterimDone, LastRound: m.LastRound,
		TurnCountry: kardinal.Country(m.TurnCountry), TurnPieces: int(m.TurnPieces), TurnCards: int(m.TurnCards),
		TurnOpened: m.TurnOpened, Decisions: int(m.Decisions),
	}
	if err := fillCounts(v.Table.Owner[:board.Spaces()], m.Owner); err != nil {
		return nil, fmt.Errorf("kardinal view: owners: %w", err)
	}
	for i, o := range m.Owner {
		if int(o) > n {
			return nil, fmt.Errorf("kardinal view: space %d owned by seat %d", i, int(o)-1)
		}
	}
	for c := 0; c < int(kardinal.NumCountries); c++ {
		if err := fillCounts(v.Table.Monasteries[c][:n], m.Monasteries[c*n:(c+1)*n]); err != nil {
			return nil, fmt.Errorf("kardinal view: monasteries: %w", err)
		}
		if err := fillCounts(v.Table.Advisors[c][:n], m.Advisors[c*n:(c+1)*n]); err != nil {
			return nil, fmt.Errorf("kardinal view: advisors: %w", err)
		}
	}
	if err := fillCounts(v.Hand[:], m.Hand); err != nil {
		return nil, fmt.Errorf("kardinal view: hand: %w", err)
	}
	if err := fillCounts(v.FaceUp[:], m.FaceUp); err != nil {
		return nil, fmt.Errorf("kardinal view: face-up cards: %w", err)
	}
	if err := fillCounts(v.Discard[:], m.Discard); err != nil {
		return nil, fmt.Errorf("kardinal view: discard: %w", err)
	}
	for s := 0; s < n; s++ {
		v.HandSizes[s], v.Monasteries[s], v.Advisors[s], v.Score[s] = int(m.HandSizes[s]), int(m.MonasteriesLeft[s]), int(m.AdvisorsLeft[s]), int(m.Score[s])
	}
	return v, nil
}
