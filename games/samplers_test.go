package games

import (
	"testing"

	"github.com/arena-games/arena/engine"
)

// TestEveryGameHasASampler: search bots can play every game the arena lists.
func TestEveryGameHasASampler(t *testing.T) {
	for _, name := range engine.Names() {
		if _, err := engine.SamplerFor(name, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
