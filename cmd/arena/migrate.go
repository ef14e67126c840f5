package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/ladder/store"
)

func ladderMigrateCommand() *cli.Command {
	return &cli.Command{
		Name:  "migrate",
		Usage: "move an SQLite ladder (bots and their programs, blocks, games, replays) into an empty PostgreSQL database",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Required: true, Usage: "the SQLite ladder database"},
			&cli.StringFlag{Name: "to", Required: true, Usage: "the PostgreSQL database, postgres://..."},
		},
		Action: ladderMigrate,
	}
}

func ladderMigrate(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("ladder migrate takes no arguments, got %q", c.Args().First())
	}
	from, to := c.String("from"), c.String("to")
	if store.IsPostgresURL(from) || !store.IsPostgresURL(to) {
		return fmt.Errorf("ladder migrate moves an SQLite file (--from) into a postgres:// database (--to)")
	}
	src, err := store.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := store.OpenAny(c.Context, to, "")
	if err != nil {
		return err
	}
	defer st.Close()
	dst := st.(*store.Postgres)
	sum, err := dst.Import(c.Context, src)
	if err != nil {
		return fmt.Errorf("migrating %s into %s: %w; nothing was written", src.Path(), dst.Path(), err)
	}
	fmt.Fprintf(c.App.Writer, "moved %d bots (%d programs), %d blocks, %d games, %d replays and %d authors from %s to %s\n",
		sum.Bots, sum.Programs, sum.Blocks, sum.Games, sum.Replays, sum.Authors, src.Path(), dst.Path())
	if sum.MissingReplays > 0 {
		fmt.Fprintf(c.App.Writer, "%d games had no replay file left; they were moved without one\n", sum.MissingReplays)
	}
	return nil
}
