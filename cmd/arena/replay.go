package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "re-simulate a match's replay file, check that it reproduces and print it",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "hidden", Usage: "also print what only some seats see"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only check, print nothing but errors"},
			&cli.IntFlag{Name: "seat", Value: -1, Usage: "step through one seat's game: at each of its decisions what it saw, its view, its options, its choice and time"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("replay takes one replay file, got %d arguments", c.NArg())
			}
			f, err := os.Open(c.Args().First())
			if err != nil {
				return err
			}
			defer f.Close()
			rep, err := arena.ReadReplay(f)
			if err != nil {
				return fmt.Errorf("%s: %w", c.Args().First(), err)
			}
			if c.IsSet("seat") {
				err = writeSeat(c.App.Writer, rep, c.Int("seat"))
			} else if c.Bool("quiet") {
				_, err = arena.Resimulate(rep, nil)
			} else {
				err = arena.WriteReadable(c.App.Writer, rep, c.Bool("hidden"))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", c.Args().First(), err)
			}
			return nil
		},
	}
}
