package ismcts

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
)

// pinnedGames are digests of whole games, ismcts (the defaults at 300 iterations) in
// one seat and the heuristic in the others, as gameDigest plays them: game i of a cell
// is deal 1000+i/players with ismcts in seat i%players. The search's speed-ups (the
// engines' option lists and logs, the dealing of hidden cards, the heuristic's scoring)
// must not change a move of either bot; a change meant to change play records the new
// digests (ISMCTS_DIGEST=print prints them).
var pinnedGames = map[string][]string{
	// Two-player Ninjas's since its new nodes start warm by default (Config.Warm).
	"ninjas/2p":   {"201/6e5a234455572b56", "392/1a7d2e45939ec41c", "176/da2c185be000d7ed", "491/48c4ffde843fb1d9"},
	"ninjas/3p":   {"174/c7a848ea75996f72", "417/695310c495aa1be5", "219/6f692e4311d45d05"},
	"ninjas/6p":   {"352/8997a5f67670c41e", "187/56eff09d7b99573d", "342/209472f7e6fd0a06", "139/2f1c7a721418bdca", "140/84f038fd4c04280e", "136/3a9f9ba11bf6c420"},
	"ivanhoe/2p":  {"84/2e2e3f53ae451564", "206/049b621dbc0a79e8"},
	"ivanhoe/3p":  {"357/b328b1ddda29e63e", "423/c2252598b1082132", "305/8104ab4f8296752d"},
	"ivanhoe/5p":  {"706/8e676e2add7dfe2d", "318/3d1c61f6fe0d7c8e", "606/4c3394553d2b73cb", "416/cafa0c7ff35acc61", "394/67d94821a5f4f839"},
	"kardinal/3p": {"274/4b471832a6c330b4", "269/840ac23bc337bc6f", "262/5361f50bdda72d64"},
	// Five-player Kardinal's since eval=fit2 became its default (Config.Fit).
	"kardinal/5p": {"329/72cae3a53baf86f5", "324/859b7ec1e652cde9", "313/ea8433e0d8c36652", "316/5bec29310873c079", "324/1845dc507036f070"},
}

// TestMovesArePinned replays the pinned games and compares every digest: the moves of
// the search and of the heuristic, at a fixed iteration count and seed, are those
// recorded.
func TestMovesArePinned(t *testing.T) {
	for cell, want := range pinnedGames {
		game, p, _ := strings.Cut(cell, "/")
		players, _ := strconv.Atoi(strings.TrimSuffix(p, "p"))
		got := make([]string, len(want))
		for i := range want {
			got[i] = gameDigest(t, game, players, i, "iterations=300")
		}
		if os.Getenv("ISMCTS_DIGEST") == "print" {
			fmt.Printf("%q: %q,\n", cell, got)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s game %d: the moves changed (log digest %s, pinned %s)", cell, i, got[i], want[i])
			}
		}
	}
}

// TestMovesDigest is opt-in, the recorded check at a cell's full budget:
// ISMCTS_DIGEST="GAME PLAYERS GAMES SETTINGS" prints the log digest of each of GAMES
// whole games played as the pinned ones are, to compare two builds.
func TestMovesDigest(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_DIGEST"))
	if len(spec) != 4 {
		t.Skip(`set ISMCTS_DIGEST="GAME PLAYERS GAMES SETTINGS"`)
	}
	players, _ := strconv.Atoi(spec[1])
	games, _ := strconv.Atoi(spec[2])
	for i := 0; i < games; i++ {
		fmt.Printf("%s %dp %s game %d: %s\n", spec[0], players, spec[3], i, gameDigest(t, spec[0], players, i, spec[3]))
	}
}

// gameDigest plays game i of a cell (deal 1000+i/players, ismcts with settings in seat
// i%players, the heuristic elsewhere) and returns a digest of its whole log: every
// card dealt and drawn and every move of every seat.
func gameDigest(t *testing.T, game string, players, i int, settings string) string {
	cfg, err := ParseSettings(settings)
	if err != nil {
		t.Fatal(err)
	}
	g := wholeGame(t, game, players, i, cfg, func(p *Player) engine.Policy { return p })
	h := engine.NewHasher()
	for _, e := range g.Log() {
		h.Byte(e.Kind)
		h.Byte(uint8(e.Audience))
		h.Byte(uint8(e.Seat))
		h.Int(int(e.A))
		h.Int(int(e.B))
		h.Int(int(e.C))
	}
	return fmt.Sprintf("%d/%016x", len(g.Log()), h.Sum())
}
