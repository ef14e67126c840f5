package examples_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/arena-games/arena/arena"
	_ "github.com/arena-games/arena/games" // every game, registered
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Run a match from Go, as `arena match` does: build a bot program, name an entrant
// per seat, start them with protocol's launcher, and arena.Run plays every deal in every seat rotation, each bot in a
// process of its own. Here the first bot of the guide meets itself; a trusted bot of
// one's own may run without the sandbox (--sandbox none).
func Example_match() {
	dir, err := os.MkdirTemp("", "example-match-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	bot := filepath.Join(dir, "firstbot")
	if out, err := exec.Command("go", "build", "-o", bot, "./firstbot").CombinedOutput(); err != nil {
		panic(fmt.Sprintf("go build: %v: %s", err, out))
	}
	me := protocol.LaunchConfig{Path: bot}
	rep, err := arena.Run(context.Background(), arena.Config{
		Game:     "ivanhoe",
		Entrants: []arena.Entrant{{Name: "first", Launch: me}, {Name: "second", Launch: me}},
		Launcher: protocol.Launcher{}, // bots are go-plugin processes
		Games:    4,                   // two deals, each in both seatings
		Seed:     1 << 60,
		Sandbox:  sandbox.Config{Level: sandbox.None},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d games of %d deals\n", rep.Game, rep.Games, rep.Deals)
	for _, b := range rep.Bots {
		fmt.Printf("%s: %d games, score %.2f\n", b.Name, b.Games, b.Score)
	}
	// Output:
	// ivanhoe: 4 games of 2 deals
	// first: 4 games, score 0.50
	// second: 4 games, score 0.50
}
