package ninjas_test

import (
	"testing"

	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/protocol/wiretest"
)

// TestWireNoLeaks: in every pair of games a seat cannot tell apart, the DecideRequests
// the arena sends that seat are the same bytes, at every player count.
func TestWireNoLeaks(t *testing.T) {
	wiretest.Sweep(t, "ninjas", ninjas.MinPlayers, ninjas.MaxPlayers, 20, ninjas.Resample)
}
