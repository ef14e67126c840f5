// Command arena plays card-game bots against each other. It is wiring only: game rules
// live in engine/, matches in arena/, ratings in ladder/.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	// The games the arena knows register themselves.
	_ "github.com/arena-games/arena/engine/ivanhoe"
)

func main() {
	app := &cli.App{
		Name:  "arena",
		Usage: "play card-game bots against each other",
		Commands: []*cli.Command{
			playCommand(),
		},
	}
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}
