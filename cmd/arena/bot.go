package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/plugins/builtin"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
	"github.com/arena-games/arena/protocol/sandbox/companion"
)

func dbFlag() cli.Flag {
	return &cli.StringFlag{Name: "db", Usage: "the ladder database: an SQLite file (default $XDG_DATA_HOME/arena/ladder.db, else ~/.local/share/arena/ladder.db) or a postgres:// URL"}
}

// ladderStore is a ladder database, with its authors, that can say where it is.
type ladderStore interface {
	store.Store
	// Authors: both stores keep the authors of a served ladder.
	store.Authors
	// Path is the SQLite file, or the PostgreSQL URL without its password.
	Path() string
}

// openLadder opens the database of --db (an SQLite file or a postgres:// URL), or the
// default one.
func openLadder(c *cli.Context) (ladderStore, error) {
	path := c.String("db")
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	st, err := store.OpenAny(c.Context, path, "")
	if err != nil {
		return nil, err
	}
	return st.(ladderStore), nil
}

// openLadderToRead opens an existing database of --db for a command that only reads
// it: a missing file is one error, not a new ladder, and a read-only one is read.
func openLadderToRead(c *cli.Context) (ladderStore, error) {
	path, err := ladderPath(c)
	if err != nil {
		return nil, err
	}
	if store.IsPostgresURL(path) {
		return openLadder(c)
	}
	return store.OpenExisting(path)
}

// openLadderToChange opens an existing database of --db for a command that changes
// what is there (retire, reactivate): a missing file is one error, not a new ladder.
func openLadderToChange(c *cli.Context) (ladderStore, error) {
	path, err := ladderPath(c)
	if err != nil {
		return nil, err
	}
	if store.IsPostgresURL(path) {
		return openLadder(c)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no ladder database at %s (check --db; a ladder starts with `arena bot add`)", path)
	}
	return store.Open(path)
}

func ladderPath(c *cli.Context) (string, error) {
	if p := c.String("db"); p != "" {
		return p, nil
	}
	return store.DefaultPath()
}

// builtinLaunch runs the built-in bot's own program (cmd/bots/NAME) when it lies
// beside the arena and is of its clean build (package companion), with the bot's
// settings as its argument, else this very binary as `arena serve-bot NAME`. Either
// way the sandbox confines it alike: the program is the bot's, its folder the arena's.
func builtinLaunch(name string) (protocol.LaunchConfig, error) {
	if !builtin.Has(name) {
		return protocol.LaunchConfig{}, fmt.Errorf("unknown built-in bot %q (built-in: %s)", name, strings.Join(builtin.Names(), ", "))
	}
	base, settings, _ := strings.Cut(name, ":")
	if prog, _ := companion.Bot(base); prog != "" {
		lc := protocol.LaunchConfig{Path: prog}
		if settings != "" {
			lc.Args = []string{settings}
		}
		return lc, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return protocol.LaunchConfig{}, err
	}
	return protocol.LaunchConfig{Path: exe, Args: []string{"serve-bot", name}}, nil
}

func botCommand() *cli.Command {
	return &cli.Command{
		Name:  "bot",
		Usage: "add, list and retire the bots of the ladder",
		Subcommands: withUsageErrors(
			&cli.Command{
				Name:      "add",
				Usage:     "add a bot program (copied into the ladder's store) or a built-in bot; a name already there gets a new version",
				ArgsUsage: "PATH|BUILTIN  (a bot program, or a built-in name: " + strings.Join(builtin.Names(), ", ") + ")",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "name", Usage: "the bot's name on the ladder (default: the built-in name or the file's name)"},
					&cli.StringFlag{Name: "game", Value: "ivanhoe", Usage: "the game of the smoke test: " + strings.Join(engine.Names(), ", ")},
					&cli.StringSliceFlag{Name: "bot-read", Usage: "a folder (or file) the bot may read in its smoke test beside the system's, such as a runtime outside /usr: give ladder run the same (repeat for more)"},
					dbFlag(),
				},
				Action: botAdd,
			},
			&cli.Command{
				Name:   "list",
				Usage:  "list the bots of the ladder",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "also list retired versions"}, dbFlag()},
				Action: botList,
			},
			botNameCommand("retire", "retire a bot: it plays no more, its games stay in the ratings", "retired",
				store.Store.RetireBot),
			botNameCommand("reactivate", "bring back a retired bot: its latest version plays again, its games keep counting",
				"reactivated", store.Store.ReactivateBot),
		),
	}
}

// botList prints the ladder's bots, with their authors on a served ladder.
func botList(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("bot list takes no arguments, got %q", c.Args().First())
	}
	st, err := openLadderToRead(c)
	if err != nil {
		return err
	}
	defer st.Close()
	bots, err := st.Bots(c.Context, c.Bool("all"))
	if err != nil {
		return err
	}
	if len(bots) == 0 {
		fmt.Fprintln(c.App.Writer, "no bots yet: arena bot add PATH --name NAME")
		return nil
	}
	held, err := suspensions(c, st)
	if err != nil {
		return err
	}
	// Bots an author submitted to a served ladder are theirs; the
	// operator's are nobody's ("-").
	owners, err := st.Owners(c.Context)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bot\tversion\tauthor\tprogram\tsha256\tadded\tstatus")
	for _, b := range bots {
		status, program := "active", b.Path
		if !b.Active() {
			status = "retired " + b.Retired.Local().Format("2006-01-02 15:04")
		} else if x, ok := held[b.ID]; ok {
			status = "suspended: " + x.Reason
		}
		if b.Builtin != "" {
			program = "built-in " + b.Builtin
		}
		author := owners[b.Name]
		if author == "" {
			author = "-"
		}
		fmt.Fprintf(tw, "%s\tv%d\t%s\t%s\t%.12s\t%s\t%s\n", b.Name, b.Version, author, program, b.SHA256, b.Added.Local().Format("2006-01-02 15:04"), status)
	}
	return tw.Flush()
}

// addOptions are those of every bot that joins the ladder, by `bot add` or submitted
// to `ladder serve`: smoke-tested in game against the built-in random bot.
func addOptions(game, name string, sb *sandbox.Config) ladder.AddOptions {
	return ladder.AddOptions{Name: name, BuiltinLaunch: builtinLaunch,
		Smoke: func(ctx context.Context, lc protocol.LaunchConfig) error {
			opp, err := builtinLaunch("random")
			if err != nil {
				return err
			}
			return ladder.Smoke(ctx, game, lc, opp, *sb)
		}}
}

func botAdd(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("bot add takes one bot program or built-in name, got %d arguments", c.NArg())
	}
	game := c.String("game")
	if _, err := engine.Lookup(game); err != nil {
		return err
	}
	arg := c.Args().First()
	var sb sandbox.Config // the ladder's, once the store is open
	opt := addOptions(game, c.String("name"), &sb)
	switch {
	case !strings.ContainsRune(arg, '/') && builtin.Has(arg):
		opt.Builtin = arg
		if opt.Name == "" {
			opt.Name = arg
		}
	default:
		if _, err := os.Stat(arg); err != nil {
			if !strings.ContainsRune(arg, '/') {
				return fmt.Errorf("unknown bot %q: not a built-in bot (%s) nor a bot program", arg, strings.Join(builtin.Names(), ", "))
			}
			return fmt.Errorf("bot program: %w", err)
		}
		opt.Path = arg
		if opt.Name == "" {
			opt.Name = filepath.Base(arg)
		}
	}
	st, err := openLadder(c)
	if err != nil {
		return err
	}
	defer st.Close()
	if sb, err = ladderSandbox(st.Dir(), c.StringSlice("bot-read")); err != nil {
		return err
	}
	b, err := ladder.AddBot(c.Context, st, opt)
	if errors.Is(err, store.ErrDuplicate) {
		return fmt.Errorf("%s is already on the ladder: %w", opt.Name, err)
	}
	if err != nil {
		return err
	}
	what := "built-in " + b.Builtin
	if _, inDB := st.(store.Programs); b.Builtin == "" && inDB {
		what = "program stored in the database"
	} else if b.Builtin == "" {
		what = filepath.Join(st.Dir(), b.Path)
	}
	fmt.Fprintf(c.App.Writer, "added %s v%d (%s, sha256 %.12s) to %s\n", b.Name, b.Version, what, b.SHA256, st.Path())
	return nil
}
