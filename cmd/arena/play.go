package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
)

func playCommand() *cli.Command {
	return &cli.Command{
		Name:      "play",
		Usage:     "play one seeded game in-process between built-in random players and print its log; with --human, play a seat yourself against bots",
		ArgsUsage: "[BOT...]  (with --human: the bots of the other seats, in seat order, as `arena match` takes them)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "game", Value: "ivanhoe", Usage: "the game: " + fmt.Sprint(engine.Names())},
			&cli.IntFlag{Name: "players", Aliases: []string{"p"}, Value: 4, Usage: "number of seats"},
			&cli.Uint64Flag{Name: "seed", Aliases: []string{"s"}, Value: 1, Usage: "seed of the deal and of the random players"},
			&cli.BoolFlag{Name: "hidden", Usage: "also print what only some seats see (drawn cards, stolen cards)"},
			&cli.IntFlag{Name: "human", DefaultText: "none", Usage: "play seat `SEAT` yourself at the terminal, choosing among the options listed, against the bots named (no deadline for you)"},
		}, gameOptionFlags()...),
		Action: func(c *cli.Context) error {
			if c.IsSet("human") {
				return playWithHuman(c)
			}
			if c.NArg() > 0 {
				return fmt.Errorf("play takes no arguments without --human, got %q", c.Args().First())
			}
			opts, err := gameOptions(c, c.String("game"))
			if err != nil {
				return err
			}
			g, err := engine.NewWith(c.String("game"), c.Uint64("seed"), c.Int("players"), opts)
			if err != nil {
				return err
			}
			seats := make([]engine.Policy, g.Players())
			for s := range seats {
				seats[s] = random.New(c.Uint64("seed")*31 + uint64(s))
			}
			if err := engine.PlayOut(g, seats); err != nil {
				return err
			}
			printLog(c.App.Writer, g, c.Bool("hidden"))
			return nil
		},
	}
}

// printLog writes a finished game's events and result; private events only on request.
func printLog(w io.Writer, g engine.Game, hidden bool) {
	for _, e := range g.Log() {
		switch {
		case e.Audience == engine.Everyone:
			fmt.Fprintln(w, g.DescribeEvent(e))
		case hidden:
			fmt.Fprintf(w, "  (private) %s\n", g.DescribeEvent(e))
		}
	}
	res := g.Result()
	fmt.Fprintf(w, "\nresult after %d decisions", g.Decisions())
	if res.Adjudicated {
		fmt.Fprint(w, " (adjudicated at the decision bound)")
	}
	fmt.Fprintln(w, ":")
	order := make([]int, len(res.Place))
	for s := range order {
		order[s] = s
	}
	sort.SliceStable(order, func(i, j int) bool { return res.Place[order[i]] < res.Place[order[j]] })
	for _, s := range order {
		fmt.Fprintf(w, "  place %d: seat %d (score %d)\n", res.Place[s]+1, s, res.Score[s])
	}
}
