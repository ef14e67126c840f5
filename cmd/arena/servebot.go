package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/plugins/builtin"
)

// serveBotCommand is how the arena binary serves its built-in bots when their own
// programs are not beside it (builtinLaunch): `arena match` starts os.Executable()
// with these arguments as the bot process.
func serveBotCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve-bot",
		Usage:     "serve a built-in bot as a bot process (started by arena match, not by hand)",
		ArgsUsage: "NAME",
		Hidden:    true,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("serve-bot takes one bot name, got %d arguments", c.NArg())
			}
			return builtin.Serve(c.Args().First())
		},
	}
}
