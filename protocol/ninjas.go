package protocol

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/protocol/botpb"
)

// Of Knights and Ninjas' views travel as NinjasView (ninjas.proto).
func init() {
	RegisterCodec(Codec{Game: "ninjas", EncodeView: encodeNinjas, DecodeView: decodeNinjas})
}

func encodeNinjas(ev engine.View) (*botpb.View, error) {
	v, ok := ev.(*ninjas.View)
	if !ok {
		return nil, fmt.Errorf("ninjas: view of type %T", ev)
	}
	n := min(max(v.Players, 0), ninjas.MaxPlayers)
	m := &botpb.NinjasView{
		Seat: int32(v.Seat), Players: int32(v.Players), Phase: botpb.NinjasPhase(v.Phase), ToMove: int32(v.ToMove),
		TurnSeat: int32(v.TurnSeat), Turns: int32(v.Turns), Decisions: int32(v.Decisions), First: int32(v.First),
		Hand: counts(v.Hand[:]), Discard: counts(v.Discard[:]), HandSizes: ints32(v.HandSizes[:n]), Gems: ints32(v.Gems[:n]),
		DrawPile: int32(v.DrawPile), Target: int32(v.Target), Ladder: v.Ladder,
		Pending: &botpb.NinjasPending{Kind: botpb.NinjasCard(v.Pending.Kind), Jester: v.Pending.Jester, Count: int32(v.Pending.Count)},
		Hit:     int32(v.Hit), WindowGems: int32(v.WindowGems), WindowHolder: int32(v.WindowHolder), Winner: int32(v.Winner),
	}
	m.Forts = make([]*botpb.NinjasFort, n)
	for s := range m.Forts {
		f := &botpb.NinjasFort{Slots: make([]botpb.NinjasCard, ninjas.NumForts)}
		for i, k := range v.Forts[s] {
			f.Slots[i] = botpb.NinjasCard(k)
		}
		m.Forts[s] = f
	}
	return &botpb.View{Game: &botpb.View_Ninjas{Ninjas: m}}, nil
}

func decodeNinjas(pv *botpb.View) (engine.View, error) {
	m := pv.GetNinjas()
	if m == nil {
		return nil, fmt.Errorf("ninjas: the view holds no NinjasView")
	}
	n := int(m.Players)
	switch {
	case n < 1 || n > ninjas.MaxPlayers || len(m.HandSizes) != n || len(m.Gems) != n || len(m.Forts) != n:
		return nil, fmt.Errorf("ninjas view: %d players, %d hand sizes, %d gem counts, %d forts", n, len(m.HandSizes), len(m.Gems), len(m.Forts))
	case m.Pending == nil:
		return nil, fmt.Errorf("ninjas view: no pending card")
	}
	v := &ninjas.View{
		Seat: int(m.Seat), Players: n, Phase: ninjas.Phase(m.Phase), ToMove: int(m.ToMove),
		TurnSeat: int(m.TurnSeat), Turns: int(m.Turns), Decisions: int(m.Decisions), First: int(m.First),
		DrawPile: int(m.DrawPile), Target: int(m.Target), Ladder: m.Ladder,
		Pending: ninjas.Pending{Jester: m.Pending.Jester, Count: int(m.Pending.Count)},
		Hit:     int(m.Hit), WindowGems: int(m.WindowGems), WindowHolder: int(m.WindowHolder), Winner: int(m.Winner),
	}
	var err error
	if v.Pending.Kind, err = ninjasKind(m.Pending.Kind); err != nil {
		return nil, err
	}
	if err := fillCounts(v.Hand[:], m.Hand); err != nil {
		return nil, fmt.Errorf("ninjas view: hand: %w", err)
	}
	if err := fillCounts(v.Discard[:], m.Discard); err != nil {
		return nil, fmt.Errorf("ninjas view: discard: %w", err)
	}
	for s := range v.Forts {
		v.Forts[s] = [ninjas.NumForts]ninjas.Kind{ninjas.NoKind, ninjas.NoKind, ninjas.NoKind}
	}
	for s := 0; s < n; s++ {
		v.HandSizes[s], v.Gems[s] = int(m.HandSizes[s]), int(m.Gems[s])
		if len(m.Forts[s].GetSlots()) != int(ninjas.NumForts) {
			return nil, fmt.Errorf("ninjas view: seat %d has %d fort slots", s, len(m.Forts[s].GetSlots()))
		}
		for i, k := range m.Forts[s].Slots {
			if v.Forts[s][i], err = ninjasKind(k); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

func ninjasKind(k botpb.NinjasCard) (ninjas.Kind, error) {
	if k == botpb.NinjasCard_NINJAS_NO_CARD || (k >= 0 && int(k) < int(ninjas.NumKinds)) {
		return ninjas.Kind(k), nil
	}
	return ninjas.NoKind, fmt.Errorf("ninjas view: card %d", k)
}

// counts converts per-kind counts to their message.
func counts(c []uint8) []uint32 {
	out := make([]uint32, len(c))
	for i, x := range c {
		out[i] = uint32(x)
	}
	return out
}

// fillCounts reads per-kind counts back into dst, which must be as long.
func fillCounts(dst []uint8, src []uint32) error {
	if len(src) != len(dst) {
		return fmt.Errorf("%d kinds, want %d", len(src), len(dst))
	}
	for i, x := range src {
		if x > 0xff {
			return fmt.Errorf("%d cards of one kind", x)
		}
		dst[i] = uint8(x)
	}
	return nil
}

func ints32(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}
