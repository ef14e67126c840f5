package testkit

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// GamesPerBot runs `arena ladder standings --json` with the arena binary bin on the
// ladder db and returns each bot's games in its one table of game.
func GamesPerBot(t testing.TB, bin, game, db string) map[string]int {
	t.Helper()
	out, err := exec.Command(bin, "ladder", "standings", "--json", "--game", game, "--db", db).Output()
	if err != nil {
		t.Fatalf("ladder standings of %s: %v", db, err)
	}
	var tables []struct {
		Standings []struct {
			Bot   string `json:"bot"`
			Games int    `json:"games"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(out, &tables); err != nil || len(tables) != 1 {
		t.Fatalf("ladder standings of %s: one table of %s expected: %v: %s", db, game, err, out)
	}
	games := map[string]int{}
	for _, s := range tables[0].Standings {
		games[s.Bot] = s.Games
	}
	return games
}
