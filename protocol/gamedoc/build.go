package gamedoc

import (
	"strings"

	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/protocol/botpb"
)

// Build describes every game from the engines' tables and this package's argument
// roles.
func Build() *Description {
	return &Description{Version: 1, NoArg: -1, Types: argTypes,
		Games: []*Game{buildIvanhoe(), buildKardinal(), buildNinjas()}}
}

// kinds joins a role table with the engine's words and the wire's enum names.
func kinds(roles []roleEntry, text func(int) string, enum map[int32]string) []Kind {
	out := make([]Kind, 0, len(roles))
	for i, r := range roles {
		k := Kind{Kind: i + 1, Enum: enum[int32(i+1)], Text: r.text, Args: r.args, CaseOf: r.caseOf, Cases: r.cases}
		if text != nil {
			k.Text = text(i + 1)
		}
		if k.Args == nil {
			k.Args = []Arg{}
		}
		out = append(out, k)
	}
	return out
}

func buildIvanhoe() *Game {
	g := &Game{Name: "ivanhoe", MinPlayers: ivanhoe.MinPlayers, MaxPlayers: ivanhoe.MaxPlayers,
		OptionEnum: "IvanhoeOptionKind", EventEnum: "IvanhoeEventKind",
		Options: kinds(ivanhoeOptions, func(k int) string { return ivanhoe.OptionKind(k).String() }, botpb.IvanhoeOptionKind_name),
		Events:  kinds(ivanhoeEvents, nil, botpb.IvanhoeEventKind_name)}
	for c := ivanhoe.Card(0); c < ivanhoe.NumCards; c++ {
		v := c.Value()
		card := Card{Index: int(c), Enum: botpb.IvanhoeCard_name[int32(c)], Name: c.String(), Count: c.Count(), Value: &v}
		switch {
		case c.IsColour():
			card.Group, card.Colour = "colour", c.Colour().String()
		case c.IsSupporter():
			card.Group = "supporter"
		default:
			card.Group, card.Value = "action", nil
		}
		g.Cards = append(g.Cards, card)
	}
	for c := ivanhoe.Colour(0); c < ivanhoe.NumColours; c++ {
		g.Colours = append(g.Colours, Named{int(c), botpb.IvanhoeColour_name[int32(c)], c.String()})
	}
	return g
}

func buildKardinal() *Game {
	g := &Game{Name: kardinal.Name, MinPlayers: kardinal.MinPlayers, MaxPlayers: kardinal.MaxPlayers,
		OptionEnum: "KardinalOptionKind", EventEnum: "KardinalEventKind",
		Options: kinds(kardinalOptions, func(k int) string { return kardinal.OptionKind(k).String() }, botpb.KardinalOptionKind_name),
		Events:  kinds(kardinalEvents, nil, botpb.KardinalEventKind_name)}
	for k := kardinal.Kind(0); k < kardinal.NumKinds; k++ {
		card := Card{Index: int(k), Enum: botpb.KardinalCard_name[int32(k)], Name: k.String(), Count: k.Count()}
		for _, c := range k.Countries() {
			card.Countries = append(card.Countries, c.String())
		}
		g.Cards = append(g.Cards, card)
	}
	for c := kardinal.Country(0); c < kardinal.NumCountries; c++ {
		g.Countries = append(g.Countries, Named{int(c), botpb.KardinalCountry_name[int32(c)], c.String()})
	}
	b := kardinal.DefaultBoard()
	g.Board = &Board{Name: b.Name()}
	for s := 0; s < b.Spaces(); s++ {
		sp := Space{Index: s, Country: b.CountryOf(s).String(), Roads: []int{}}
		for _, r := range b.Roads(s) {
			sp.Roads = append(sp.Roads, int(r))
		}
		g.Board.Spaces = append(g.Board.Spaces, sp)
	}
	for _, a := range b.Alliances() {
		g.Board.Alliances = append(g.Board.Alliances, Alliance{a.Number, []string{a.A.String(), a.B.String()}})
	}
	for _, c := range b.ScoringOrder() {
		g.Board.ScoringOrder = append(g.Board.ScoringOrder, c.String())
	}
	return g
}

func buildNinjas() *Game {
	g := &Game{Name: "ninjas", MinPlayers: ninjas.MinPlayers, MaxPlayers: ninjas.MaxPlayers,
		OptionEnum: "NinjasOptionKind", EventEnum: "NinjasEventKind",
		Options: kinds(ninjasOptions, func(k int) string { return ninjas.OptionKind(k).String() }, botpb.NinjasOptionKind_name),
		Events:  kinds(ninjasEvents, nil, botpb.NinjasEventKind_name)}
	for k := ninjas.Kind(0); k < ninjas.NumKinds; k++ {
		card := Card{Index: int(k), Enum: botpb.NinjasCard_name[int32(k)], Name: k.String(), Count: ninjas.DefaultDeck()[k]}
		if k.IsValue() {
			v := k.Value()
			card.Value = &v
		}
		g.Cards = append(g.Cards, card)
	}
	for i, k := range []ninjas.Kind{ninjas.Castle, ninjas.Archer, ninjas.Minstrel} {
		g.Slots = append(g.Slots, Named{i, botpb.NinjasCard_name[int32(k)], strings.ToLower(k.String())})
	}
	return g
}
