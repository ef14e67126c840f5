package arena_test

import (
	"fmt"
	"os"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games" // every game, registered
)

// Read a replay file (what `arena match` writes per game, and the ladder stores), and
// play it again: Resimulate checks every decision against the game's rules and the
// result against the recorded one, and hands each decision to a function.
func ExampleReadReplay() {
	f, err := os.Open("testdata/replays/kardinal.jsonl")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	rep, err := arena.ReadReplay(f)
	if err != nil {
		panic(err)
	}
	h := rep.Header
	fmt.Printf("%s, %d players: %v\n", h.Game, h.Players, h.Bots)
	perSeat := make([]int, h.Players)
	g, err := arena.Resimulate(rep, func(_ engine.Game, _ []engine.Event, d arena.Record) { perSeat[d.Seat]++ })
	if err != nil {
		panic(err)
	}
	fmt.Println("decisions per seat:", perSeat)
	fmt.Println("places:", g.Result().Place, "scores:", g.Result().Score)
	// Output:
	// kardinal, 3 players: [random#1 heuristic random#2]
	// decisions per seat: [38 56 45]
	// places: [2 0 1] scores: [26 88 39]
}
