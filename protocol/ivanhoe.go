package protocol

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol/botpb"
)

// Ivanhoe's views travel as IvanhoeView (ivanhoe.proto).
func init() {
	RegisterCodec(Codec{Game: "ivanhoe", EncodeView: encodeIvanhoe, DecodeView: decodeIvanhoe})
}

func encodeIvanhoe(ev engine.View) (*botpb.View, error) {
	v, ok := ev.(*ivanhoe.View)
	if !ok {
		return nil, fmt.Errorf("ivanhoe: view of type %T", ev)
	}
	m := &botpb.IvanhoeView{
		Seat: int32(v.Seat), Players: int32(v.Players), Phase: botpb.IvanhoePhase(v.Phase), ToMove: int32(v.ToMove),
		Hand: make([]uint32, ivanhoe.NumCards), Discard: make([]uint32, ivanhoe.NumCards),
		Shield: int32(v.Shield), Stunned: int32(v.Stunned), Colour: botpb.IvanhoeColour(v.Colour),
		LastFinalPurple: v.LastFinalPurple, Starter: int32(v.Starter),
		PlayedThisTurn: int32(v.PlayedThisTurn), AddedThisTurn: int32(v.AddedThisTurn), DrawPile: int32(v.DrawPile),
		Pending: botpb.IvanhoeCard(v.Pending), PendingBy: int32(v.PendingBy),
		PendingArgs: []int32{int32(v.PendingArgs[0]), int32(v.PendingArgs[1]), int32(v.PendingArgs[2])},
		Tournaments: int32(v.Tournaments), TokensToWin: int32(v.TokensToWin),
	}
	for c := range v.Hand {
		m.Hand[c] = uint32(v.Hand[c])
		m.Discard[c] = uint32(v.Discard[c])
	}
	m.Seats = make([]*botpb.IvanhoeSeat, v.Players)
	for s := range m.Seats {
		seat := &botpb.IvanhoeSeat{}
		if s < len(v.HandSizes) {
			seat.HandSize = int32(v.HandSizes[s])
		}
		if s < len(v.Displays) {
			seat.Display = make([]botpb.IvanhoeCard, len(v.Displays[s]))
			for i, c := range v.Displays[s] {
				seat.Display[i] = botpb.IvanhoeCard(c)
			}
		}
		if s < len(v.InTournament) {
			seat.InTournament = v.InTournament[s]
		}
		if s < len(v.Tokens) {
			for c, held := range v.Tokens[s] {
				if held {
					seat.Tokens = append(seat.Tokens, botpb.IvanhoeColour(c))
				}
			}
		}
		m.Seats[s] = seat
	}
	return &botpb.View{Game: &botpb.View_Ivanhoe{Ivanhoe: m}}, nil
}

func decodeIvanhoe(pv *botpb.View) (engine.View, error) {
	m := pv.GetIvanhoe()
	if m == nil {
		return nil, fmt.Errorf("ivanhoe: the view holds no IvanhoeView")
	}
	n := int(m.Players)
	switch {
	case n < 1 || n > engine.MaxSeats || len(m.Seats) != n:
		return nil, fmt.Errorf("ivanhoe view: %d players, %d seats", n, len(m.Seats))
	case len(m.Hand) != int(ivanhoe.NumCards) || len(m.Discard) != int(ivanhoe.NumCards):
		return nil, fmt.Errorf("ivanhoe view: hand or discard of %d/%d kinds, want %d", len(m.Hand), len(m.Discard), ivanhoe.NumCards)
	case len(m.PendingArgs) != 3:
		return nil, fmt.Errorf("ivanhoe view: %d pending arguments, want 3", len(m.PendingArgs))
	}
	v := &ivanhoe.View{
		Seat: int(m.Seat), Players: n, Phase: ivanhoe.Phase(m.Phase), ToMove: int(m.ToMove),
		HandSizes: make([]int, n), Displays: make([][]ivanhoe.Card, n), InTournament: make([]bool, n),
		Tokens: make([][ivanhoe.NumColours]bool, n), Shield: int(m.Shield), Stunned: int(m.Stunned),
		Colour: ivanhoe.Colour(m.Colour), LastFinalPurple: m.LastFinalPurple, Starter: int(m.Starter),
		PlayedThisTurn: int(m.PlayedThisTurn), AddedThisTurn: int(m.AddedThisTurn), DrawPile: int(m.DrawPile),
		Pending: ivanhoe.Card(m.Pending), PendingBy: int(m.PendingBy),
		PendingArgs: [3]int{int(m.PendingArgs[0]), int(m.PendingArgs[1]), int(m.PendingArgs[2])},
		Tournaments: int(m.Tournaments), TokensToWin: int(m.TokensToWin),
	}
	for c := range v.Hand {
		if m.Hand[c] > 0xff || m.Discard[c] > 0xff {
			return nil, fmt.Errorf("ivanhoe view: %d cards of one kind", max(m.Hand[c], m.Discard[c]))
		}
		v.Hand[c] = uint8(m.Hand[c])
		v.Discard[c] = uint8(m.Discard[c])
	}
	for s, seat := range m.Seats {
		v.HandSizes[s] = int(seat.HandSize)
		v.InTournament[s] = seat.InTournament
		v.Displays[s] = make([]ivanhoe.Card, len(seat.Display))
		for i, c := range seat.Display {
			if c < 0 || int(c) >= int(ivanhoe.NumCards) {
				return nil, fmt.Errorf("ivanhoe view: card %d in seat %d's display", c, s)
			}
			v.Displays[s][i] = ivanhoe.Card(c)
		}
		for _, c := range seat.Tokens {
			if c < 0 || int(c) >= int(ivanhoe.NumColours) {
				return nil, fmt.Errorf("ivanhoe view: token colour %d", c)
			}
			v.Tokens[s][c] = true
		}
	}
	return v, nil
}
