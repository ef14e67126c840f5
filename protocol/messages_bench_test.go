package protocol

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol/botpb"
)

// BenchmarkDecisionMessages measures the work a decision's structured message costs
// each side, in one process and without the transport, on the requests of random
// two-player Ivanhoe games (one op is one decision):
//   - host: the engine's view for the seat, encoded with the events since the seat's
//     previous decision and the options, and marshalled, as the arena does before it
//     sends (the engine's own move, applied after, is counted too);
//   - bot: the request unmarshalled and decoded into the engine's view, events and
//     options, as the Go SDK does before the policy chooses.
//
// docs/performance.md, "The transport", sets these against a round trip.
func BenchmarkDecisionMessages(b *testing.B) {
	codec, err := CodecFor("ivanhoe")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("host", func(b *testing.B) {
		rnd := engine.NewRand(5)
		g, seats := twoSeatGame(b, codec, 0)
		var buf []byte
		bytes := 0
		b.ReportAllocs()
		for i := 1; b.Loop(); i++ {
			if g.Terminal() {
				g, seats = twoSeatGame(b, codec, uint64(i))
			}
			req, err := seats[g.ToMove()].Next(g)
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], req); err != nil {
				b.Fatal(err)
			}
			bytes += len(buf)
			if err := g.Apply(rnd.Intn(len(g.Options()))); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(bytes)/float64(b.N), "bytes/request")
	})
	b.Run("bot", func(b *testing.B) {
		wires := gameRequests(b, codec, 20)
		var opts []engine.Option
		var events []engine.Event
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			var req botpb.DecideRequest
			if err := proto.Unmarshal(wires[i%len(wires)], &req); err != nil {
				b.Fatal(err)
			}
			if _, err := codec.DecodeView(req.View); err != nil {
				b.Fatal(err)
			}
			var err error
			if opts, err = DecodeOptions(opts[:0], req.Options); err != nil {
				b.Fatal(err)
			}
			if events, err = DecodeEvents(events[:0], req.Events, int(req.Seat)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// gameRequests are the marshalled requests both seats receive in n random two-player
// Ivanhoe games.
func gameRequests(b *testing.B, codec Codec, n int) [][]byte {
	var out [][]byte
	rnd := engine.NewRand(5)
	for seed := range uint64(n) {
		g, seats := twoSeatGame(b, codec, seed)
		for !g.Terminal() {
			req, err := seats[g.ToMove()].Next(g)
			if err != nil {
				b.Fatal(err)
			}
			wire, err := proto.Marshal(req)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, wire)
			if err := g.Apply(rnd.Intn(len(g.Options()))); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

// twoSeatGame is a new two-player Ivanhoe game and the requests of its two seats.
func twoSeatGame(b *testing.B, codec Codec, seed uint64) (*ivanhoe.Game, [2]*SeatRequests) {
	g, err := ivanhoe.New(seed, 2)
	if err != nil {
		b.Fatal(err)
	}
	return g, [2]*SeatRequests{NewSeatRequests(codec, "m", 0), NewSeatRequests(codec, "m", 1)}
}
