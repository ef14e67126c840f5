package protocol

import (
	"context"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol/botpb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type timedPolicy struct{ got *Clock }

func (timedPolicy) Choose(engine.View, []engine.Event, []engine.Option) int { return -1 }

func (p timedPolicy) ChooseWithin(c Clock, _ engine.View, _ []engine.Event, _ []engine.Option) int {
	*p.got = c
	return 0
}

// TestATimedPolicyGetsTheDecisionsClock: the deadline is the request's time allowed
// from when the request arrived, and the bank is passed on.
func TestATimedPolicyGetsTheDecisionsClock(t *testing.T) {
	var got Clock
	srv := NewBotServer(func(Match) engine.Policy { return timedPolicy{got: &got} }).(*botServer)
	_, err := srv.StartMatch(context.Background(), &botpb.StartRequest{MatchId: "m", Game: "ivanhoe", Seat: 0, Players: 2})
	require.NoError(t, err)
	g, err := ivanhoe.New(1, 2)
	require.NoError(t, err)
	codec, err := CodecFor("ivanhoe")
	require.NoError(t, err)
	view, err := codec.EncodeView(g.View(0))
	require.NoError(t, err)
	req := &botpb.DecideRequest{MatchId: "m", View: view, Options: AppendOptions(nil, g.Options()),
		DeadlineUs: 300_000, BankUs: 40_000_000}
	v, _ := srv.matches.Load(matchKey{"m", 0})
	before := time.Now()
	choice, err := v.(*seatState).decide(req)
	after := time.Now()
	require.NoError(t, err)
	assert.Equal(t, 0, choice, "ChooseWithin, not Choose, answered")
	assert.Equal(t, 40*time.Second, got.Bank)
	assert.False(t, got.Deadline.Before(before.Add(300*time.Millisecond)), "the deadline counts from the request's arrival")
	assert.False(t, got.Deadline.After(after.Add(300*time.Millisecond)))
}
