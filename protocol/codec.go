package protocol

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/botpb"
)

// Codec converts one game's views to their typed message and back. The host encodes,
// the Go SDK decodes into the engine's own view type so a bot is an engine.Policy.
type Codec struct {
	Game       string
	EncodeView func(engine.View) (*botpb.View, error)
	DecodeView func(*botpb.View) (engine.View, error)
	// ForOptions, when set, gives the decoder for a match played with options that
	// change what a view means (another board). Without it, DecodeView serves every
	// match whatever its options.
	ForOptions func(engine.Options) (func(*botpb.View) (engine.View, error), error)
}

// Decoder is the view decoder for a match played with opts.
func (c Codec) Decoder(opts engine.Options) (func(*botpb.View) (engine.View, error), error) {
	if c.ForOptions == nil || len(opts) == 0 {
		return c.DecodeView, nil
	}
	return c.ForOptions(opts)
}

var (
	codecMu sync.RWMutex
	codecs  = map[string]Codec{}
)

// RegisterCodec makes a game's views travel; each game's file calls it from init.
func RegisterCodec(c Codec) {
	codecMu.Lock()
	defer codecMu.Unlock()
	codecs[c.Game] = c
}

// CodecFor finds the codec of a game.
func CodecFor(game string) (Codec, error) {
	codecMu.RLock()
	defer codecMu.RUnlock()
	c, ok := codecs[game]
	if !ok {
		names := make([]string, 0, len(codecs))
		for n := range codecs {
			names = append(names, n)
		}
		sort.Strings(names)
		return Codec{}, fmt.Errorf("the protocol has no view messages for game %q (known: %s)", game, strings.Join(names, ", "))
	}
	return c, nil
}

// AppendOptions converts options to their messages, appended to buf.
func AppendOptions(buf []*botpb.Option, opts []engine.Option) []*botpb.Option {
	for _, o := range opts {
		buf = append(buf, &botpb.Option{Kind: uint32(o.Kind), A: int32(o.A), B: int32(o.B), C: int32(o.C), D: int32(o.D)})
	}
	return buf
}

// AppendEvents converts events to their messages, appended to buf.
func AppendEvents(buf []*botpb.Event, evs []engine.Event) []*botpb.Event {
	for _, e := range evs {
		buf = append(buf, &botpb.Event{Kind: uint32(e.Kind), Seat: int32(e.Seat), A: int32(e.A), B: int32(e.B), C: int32(e.C)})
	}
	return buf
}

// DecodeOptions converts option messages back, appended to buf. Values that do not fit
// the engine's fields are an error: a host never sends them.
func DecodeOptions(buf []engine.Option, msgs []*botpb.Option) ([]engine.Option, error) {
	for _, m := range msgs {
		if m.Kind > 0xff || !fits16(m.A, m.B, m.C, m.D) {
			return buf, fmt.Errorf("option %v out of range", m)
		}
		buf = append(buf, engine.Option{Kind: uint8(m.Kind), A: int16(m.A), B: int16(m.B), C: int16(m.C), D: int16(m.D)})
	}
	return buf, nil
}

// DecodeEvents converts event messages back, appended to buf. The audience is not sent
// (the bot's seat saw every event it gets); it is set to the receiving seat.
func DecodeEvents(buf []engine.Event, msgs []*botpb.Event, seat int) ([]engine.Event, error) {
	for _, m := range msgs {
		if m.Kind > 0xff || m.Seat < -1 || m.Seat >= engine.MaxSeats || !fits16(m.A, m.B, m.C, 0) {
			return buf, fmt.Errorf("event %v out of range", m)
		}
		buf = append(buf, engine.Event{Kind: uint8(m.Kind), Audience: engine.Only(seat), Seat: int8(m.Seat), A: int16(m.A), B: int16(m.B), C: int16(m.C)})
	}
	return buf, nil
}

func fits16(v ...int32) bool {
	for _, x := range v {
		if x < -1<<15 || x >= 1<<15 {
			return false
		}
	}
	return true
}
