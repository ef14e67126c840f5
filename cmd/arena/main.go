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
		// Errors are printed once, below; a usage error is one line too.
		HideHelpCommand: true,
		Name:            "arena",
		Usage:           "play card-game bots against each other",
		Commands: []*cli.Command{
			playCommand(),
			matchCommand(),
			replayCommand(),
			serveBotCommand(),
		},
	}
	if err := app.Run(flagsFirst(app, os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}
