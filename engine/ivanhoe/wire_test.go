package ivanhoe_test

import (
	"testing"

	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol/wiretest"
)

// TestWireNoLeaks: in every pair of games a seat cannot tell apart, the DecideRequests
// the arena sends that seat are the same bytes, at every player count.
func TestWireNoLeaks(t *testing.T) {
	wiretest.Sweep(t, "ivanhoe", ivanhoe.MinPlayers, ivanhoe.MaxPlayers, 20, ivanhoe.Resample)
}
