package kardinal_test

import (
	"testing"

	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol/wiretest"
)

// TestWireNoLeaks: in every pair of games a seat cannot tell apart, the DecideRequests
// the arena sends that seat are the same bytes, at every player count.
func TestWireNoLeaks(t *testing.T) {
	wiretest.Sweep(t, "kardinal", kardinal.MinPlayers, kardinal.MaxPlayers, 20, kardinal.Resample)
}
