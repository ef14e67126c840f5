package kardinal_test

import (
	"testing"

	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol/wiretest"
)

// TestWireNoLeaks: in every pair of games a seat cannot tell apart, the DecideRequests
// the arena sends that seat are the same bytes, at every player count.
func TestWireNoLeaks(t *testing.T) {
	n := wiretest.Sweep(t, "kardinal", kardinal.MinPlayers, kardinal.MaxPlayers, 30, kardinal.Resample)
	t.Logf("%d requests compared", n)
	if n < 500 {
		t.Fatalf("only %d requests compared", n)
	}
}
