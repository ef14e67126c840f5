package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/engine/kardinal"
)

func boardCommand() *cli.Command {
	return &cli.Command{
		Name:      "board",
		Usage:     "print a Kardinal und König board: countries, spaces, roads, alliances (the default board, or --file)",
		ArgsUsage: " ",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "file", Usage: "a board file to check and print"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("board takes no arguments, got %q", c.Args().First())
			}
			b, err := loadBoard(c.String("file"))
			if err != nil {
				return err
			}
			fmt.Fprint(c.App.Writer, b.String())
			return nil
		},
	}
}

// loadBoard reads a board file, or returns the default board for "".
func loadBoard(path string) (*kardinal.Board, error) {
	if path == "" {
		return kardinal.DefaultBoard(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := kardinal.LoadBoard(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
