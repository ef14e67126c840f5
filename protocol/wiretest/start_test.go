package wiretest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/bot"
)

// TestTheStartRequestCarriesTheStartAlone: the message that starts a match holds the
// fields of bot.Start and nothing else, each as given. The arena builds the Start from
// its configuration and the bot's own seed (its no-leak test, TestNoBotLearnsTheDeal,
// checks those); a field added to the message without a field of the Start fails here.
func TestTheStartRequestCarriesTheStartAlone(t *testing.T) {
	m := bot.Start{MatchID: "d0003-r1", Game: "ivanhoe", Seat: 1, Players: 3, Seed: 0xfeedface,
		Decision: 1500 * time.Millisecond, Bank: time.Minute, Options: map[string]string{"board": "text"}}
	req := protocol.StartRequest(m)
	want := map[protoreflect.Name]any{
		"match_id": m.MatchID, "game": m.Game, "seat": int32(m.Seat), "players": int32(m.Players), "seed": m.Seed,
		"decision_deadline_us": m.Decision.Microseconds(), "bank_us": m.Bank.Microseconds(),
	}
	seen := map[protoreflect.Name]bool{}
	req.ProtoReflect().Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		seen[f.Name()] = true
		if f.Name() == "options" {
			assert.Equal(t, m.Options, req.Options)
			return true
		}
		w, ok := want[f.Name()]
		if assert.True(t, ok, "the start request carries %s, which the Start has not", f.Name()) {
			assert.Equal(t, w, v.Interface(), "%s", f.Name())
		}
		return true
	})
	fields := req.ProtoReflect().Descriptor().Fields()
	assert.Equal(t, len(want)+1, fields.Len(), "every field of the message is a field of the Start")
	assert.Len(t, seen, fields.Len(), "every field of the Start is sent")
}
