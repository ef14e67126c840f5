package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/ladder/store"
)

// botNameCommand is a `bot` subcommand that changes one bot, named by its argument, in
// an existing ladder (retire, reactivate), and says what it did.
func botNameCommand(name, usage, done string, change func(store.Store, context.Context, string) (store.Bot, error)) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("bot %s takes one bot name, got %d arguments", name, c.NArg())
			}
			st, err := openLadderToChange(c)
			if err != nil {
				return err
			}
			defer st.Close()
			b, err := change(st, c.Context, c.Args().First())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "%s %s v%d\n", done, b.Name, b.Version)
			return nil
		},
	}
}
