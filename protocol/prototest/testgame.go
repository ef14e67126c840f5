// Package prototest makes the arena's test game (engine/enginetest) travel over the
// protocol. Tests import it; the product does not, so "testgame" stays out of the
// arena binary.
package prototest

import (
	"fmt"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
)

func init() {
	protocol.RegisterCodec(protocol.Codec{Game: enginetest.Name, EncodeView: encode, DecodeView: decode})
}

func encode(ev engine.View) (*botpb.View, error) {
	v, ok := ev.(*enginetest.View)
	if !ok {
		return nil, fmt.Errorf("testgame: view of type %T", ev)
	}
	m := &botpb.TestGameView{Seat: int32(v.Seat), Players: int32(v.Players), ToMove: int32(v.ToMove), Pile: int32(v.Pile), Bonus: int32(v.Bonus)}
	m.Taken = make([]int32, len(v.Taken))
	for i, x := range v.Taken {
		m.Taken[i] = int32(x)
	}
	return &botpb.View{Game: &botpb.View_Testgame{Testgame: m}}, nil
}

func decode(pv *botpb.View) (engine.View, error) {
	m := pv.GetTestgame()
	if m == nil {
		return nil, fmt.Errorf("testgame: the view holds no TestGameView")
	}
	v := &enginetest.View{Seat: int(m.Seat), Players: int(m.Players), ToMove: int(m.ToMove), Pile: int(m.Pile), Bonus: int(m.Bonus)}
	v.Taken = make([]int, len(m.Taken))
	for i, x := range m.Taken {
		v.Taken[i] = int(x)
	}
	return v, nil
}
