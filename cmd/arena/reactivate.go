package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func botReactivateCommand() *cli.Command {
	return &cli.Command{
		Name:      "reactivate",
		Usage:     "bring back a retired bot: its latest version plays again, its games keep counting",
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("bot reactivate takes one bot name, got %d arguments", c.NArg())
			}
			st, err := openLadderToChange(c)
			if err != nil {
				return err
			}
			defer st.Close()
			b, err := st.ReactivateBot(c.Context, c.Args().First())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "reactivated %s v%d\n", b.Name, b.Version)
			return nil
		},
	}
}
