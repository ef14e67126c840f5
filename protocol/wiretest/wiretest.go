// Package wiretest checks that the bytes the arena sends a seat carry nothing the
// engine hides from it. The engines' own no-leak tests make pairs of games a seat
// cannot tell apart (everything it cannot see dealt again); Walk plays both on and,
// as long as the seat's view, events and options agree, requires the DecideRequests
// the seat receives to be equal byte for byte.
package wiretest

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games" // the registry Sweep starts games from
	"github.com/arena-games/arena/protocol"
)

// Walk plays a and b for at most steps decisions and returns how many of seat's
// requests it compared. Seat's decisions and every decision of a that b also offers
// are made alike. The two games must ask the same seats in the same order: were a
// question asked only of the holder of a hidden card, the pause before the seat's next
// decision would tell it who holds the card. The walk stops when the seat could tell
// the games apart by what the engine shows it, or another seat makes a choice that
// the other game does not offer it, since from there on the games may differ.
func Walk(t testing.TB, game string, a, b engine.Game, seat int, r *engine.Rand, steps int) int {
	t.Helper()
	codec, err := protocol.CodecFor(game)
	if err != nil {
		t.Fatal(err)
	}
	wa, wb := protocol.NewSeatRequests(codec, "m", seat), protocol.NewSeatRequests(codec, "m", seat)
	compared := 0
	ca, cb := 0, 0 // where the seat's events were compared up to
	for step := 0; step < steps && !a.Terminal() && !b.Terminal(); step++ {
		ta, tb := a.ToMove(), b.ToMove()
		if ta != tb {
			t.Fatalf("seat %d cannot tell the games apart, but after %d of its requests one asks seat %d and the other seat %d",
				seat, compared, ta, tb)
		}
		if ta == seat {
			if !sameSight(a, b, seat, ca, cb) {
				return compared
			}
			ra, err := wa.Next(a)
			if err != nil {
				t.Fatal(err)
			}
			ba := marshal(t, ra)
			rb, err := wb.Next(b)
			if err != nil {
				t.Fatal(err)
			}
			if bb := marshal(t, rb); string(ba) != string(bb) {
				t.Fatalf("seat %d cannot tell the games apart, but its request %d differs on the wire:\n%v\n%v",
					seat, compared+1, ra, rb)
			}
			compared++
			ca, cb = len(a.Log()), len(b.Log())
		}
		o := a.Options()[r.Intn(len(a.Options()))]
		j, ok := engine.Find(b, o)
		if !ok {
			return compared
		}
		apply(t, a, indexOf(a, o))
		apply(t, b, j)
	}
	return compared
}

// sameSight: what the engine shows the seat is the same in both games.
func sameSight(a, b engine.Game, seat, ca, cb int) bool {
	return reflect.DeepEqual(a.View(seat), b.View(seat)) &&
		reflect.DeepEqual(engine.EventsFor(nil, a.Log(), seat, ca), engine.EventsFor(nil, b.Log(), seat, cb)) &&
		reflect.DeepEqual(a.Options(), b.Options())
}

func marshal(t testing.TB, m proto.Message) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func apply(t testing.TB, g engine.Game, i int) {
	if err := g.Apply(i); err != nil {
		t.Fatal(err)
	}
}

func indexOf(g engine.Game, o engine.Option) int {
	i, _ := engine.Find(g, o)
	return i
}

// Sweep plays seeded random games of every player count in [minPlayers, maxPlayers]
// and, at random decisions, walks each game beside a resample of it for the seat to
// move (resample deals again what that seat cannot see). It fails unless it compared
// at least 500 requests: a sweep that compares nothing proves nothing.
func Sweep(t testing.TB, game string, minPlayers, maxPlayers, seeds int,
	resample func(g engine.Game, seat int, r *engine.Rand) engine.Game) {
	t.Helper()
	n := sweep(t, game, minPlayers, maxPlayers, seeds, resample)
	t.Logf("%d requests compared", n)
	if n < 500 {
		t.Fatalf("only %d requests compared", n)
	}
}

func sweep(t testing.TB, game string, minPlayers, maxPlayers, seeds int,
	resample func(g engine.Game, seat int, r *engine.Rand) engine.Game) int {
	t.Helper()
	compared := 0
	for players := minPlayers; players <= maxPlayers; players++ {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			g, err := engine.New(game, seed, players)
			if err != nil {
				t.Fatal(err)
			}
			r := engine.NewRand(seed*131 + uint64(players))
			for !g.Terminal() {
				if r.Intn(4) == 0 {
					s := g.ToMove()
					compared += Walk(t, game, g.Clone(), resample(g, s, &r), s, &r, 80)
				}
				apply(t, g, r.Intn(len(g.Options())))
			}
		}
	}
	return compared
}
