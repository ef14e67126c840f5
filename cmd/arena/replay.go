package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/watch"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "re-simulate a match's replay file (or a ladder game's replay), check that it reproduces and print it",
		ArgsUsage: "FILE  (or --game-id N [--db DB] for a game of the ladder)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "hidden", Usage: "also print what only some seats see"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "only check, print nothing but errors"},
			&cli.IntFlag{Name: "seat", Value: -1, DefaultText: "none", Usage: "step through one seat's game: at each of its decisions what it saw, its view, its options, its choice and time"},
			&cli.IntFlag{Name: "at", DefaultText: "the first", Usage: "with --seat: start at this decision of the game (as a forfeit line names it)"},
			&cli.Int64Flag{Name: "game-id", Usage: "the replay of this recorded ladder game (its ID), from the ladder database"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			name, in, err := replayInput(c)
			if err != nil {
				return err
			}
			defer in.Close()
			rep, err := arena.ReadReplay(in)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if c.IsSet("seat") {
				err = watch.WriteSeat(c.App.Writer, rep, c.Int("seat"), c.Int("at"))
			} else if c.Bool("quiet") {
				_, err = arena.Resimulate(rep, nil)
			} else {
				err = arena.WriteReadable(c.App.Writer, rep, c.Bool("hidden"))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		},
	}
}

// replayInput opens the replay file argument, or reads the replay of --game-id from
// the ladder database, which works from any machine for a PostgreSQL ladder.
func replayInput(c *cli.Context) (string, io.ReadCloser, error) {
	if !c.IsSet("game-id") {
		if c.NArg() != 1 {
			return "", nil, fmt.Errorf("replay takes one replay file (or --game-id N), got %d arguments", c.NArg())
		}
		f, err := os.Open(c.Args().First())
		return c.Args().First(), f, err
	}
	if c.NArg() != 0 {
		return "", nil, fmt.Errorf("replay takes a replay file or --game-id, not both")
	}
	st, err := openLadder(c)
	if err != nil {
		return "", nil, err
	}
	defer st.Close()
	rs, ok := st.(store.Replays)
	if !ok {
		return "", nil, fmt.Errorf("%s keeps no replays", st.Path())
	}
	id := c.Int64("game-id")
	b, err := rs.Replay(c.Context, id)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", st.Path(), err)
	}
	return fmt.Sprintf("game %d", id), io.NopCloser(bytes.NewReader(b)), nil
}
