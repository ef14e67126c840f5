// Command arena plays card-game bots against each other. It is wiring only: game rules
// live in engine/, matches in arena/, ratings in ladder/.
package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	_ "github.com/arena-games/arena/games" // every game, registered
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"

	// The games the arena knows register themselves.
	_ "github.com/arena-games/arena/engine/ivanhoe"
	_ "github.com/arena-games/arena/engine/kardinal"
	_ "github.com/arena-games/arena/engine/ninjas"
)

func main() {
	// Started as the sandbox's helper, the binary confines itself and execs the bot.
	sandbox.RunHelper(os.Args)
	app := newApp()
	if err := app.Run(flagsFirst(app, os.Args)); err != nil {
		// Errors may quote what a bot wrote: escaped, so that it cannot drive the terminal.
		fmt.Fprintln(os.Stderr, "arena:", protocol.Printable(err.Error()))
		os.Exit(exitCode(err))
	}
}

func newApp() *cli.App {
	tr := &traces{}
	return &cli.App{
		Before: tr.start, After: tr.end,
		Name:  "arena",
		Usage: "play card-game bots against each other",
		// Errors are printed once, by main, as one line.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("unknown command %q (see arena help)", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		Commands: withUsageErrors(
			playCommand(),
			boardCommand(),
			matchCommand(),
			replayCommand(),
			serveBotCommand(),
			withSubcommands(botCommand(), botCheckCommand(), botReinstateCommand(), botSubmitCommand()),
			authorCommand(),
			ladderCommand(),
			workerCommand(),
			sandboxExecCommand(),
		),
	}
}

// usageError keeps a mistyped flag to the one error line main prints.
func usageError(_ *cli.Context, err error, _ bool) error { return err }

func withUsageErrors(cmds ...*cli.Command) []*cli.Command {
	for _, c := range cmds {
		c.OnUsageError = usageError
	}
	return cmds
}
