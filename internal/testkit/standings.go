package testkit

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// Standing is one bot's line of `arena ladder standings --json`.
type Standing struct {
	Bot     string  `json:"bot"`
	Version int     `json:"version"`
	Active  bool    `json:"active"`
	Games   int     `json:"games"`
	LiveElo float64 `json:"live_elo"`
	Elo     float64 `json:"elo"`
	Score   float64 `json:"score"`
}

// Standings runs `arena ladder standings --json` with the arena binary bin on the
// ladder db and returns the lines of its one table, of game.
func Standings(t testing.TB, bin, game, db string) []Standing {
	t.Helper()
	out, err := exec.Command(bin, "ladder", "standings", "--json", "--game", game, "--db", db).Output()
	if err != nil {
		t.Fatalf("ladder standings of %s: %v", db, err)
	}
	var tables []struct {
		Standings []Standing `json:"standings"`
	}
	if err := json.Unmarshal(out, &tables); err != nil || len(tables) != 1 {
		t.Fatalf("ladder standings of %s: one table of %s expected: %v: %s", db, game, err, out)
	}
	return tables[0].Standings
}
