package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/play"
)

// terminal is the person at the terminal of `arena play --human SEAT BOT...`: they
// see what a bot in the seat would be sent (its view, the events it saw, its options
// in words) and type their choice, with no deadline; the bots (package play) keep the
// match clock of `arena match`.
type terminal struct {
	in   *bufio.Reader
	out  io.Writer
	seen int // the log's length the person has been shown
}

// errInputEnded ends a game whose person stopped answering (Ctrl-D, a closed pipe).
var errInputEnded = errors.New("standard input ended before the game did")

// playHuman plays g with the person at seat human and the entrants at the other seats,
// in order, and prints the result.
func playHuman(ctx context.Context, g engine.Game, opts engine.Options, human int, entrants []arena.Entrant, seed uint64, in io.Reader, out io.Writer) error {
	cfg := play.Config{Game: g, Options: opts, Seat: human, Seed: seed, Clock: arena.DefaultClock()}
	for _, e := range entrants {
		cfg.Bots = append(cfg.Bots, play.Bot{Name: e.Name, Launch: e.Launch})
	}
	names := cfg.Names("you")
	cfg.Forfeit = func(s int, why string) {
		fmt.Fprintf(out, "** seat %d (%s) forfeits: %s; the game's fallback plays for it\n", s, names[s], why)
	}
	var seats []string
	for s, n := range names {
		if s != human {
			seats = append(seats, fmt.Sprintf("seat %d is %s", s, n))
		}
	}
	fmt.Fprintf(out, "%s, %d players: you are seat %d; %s\n", g.Name(), g.Players(), human, strings.Join(seats, ", "))
	t := &terminal{in: bufio.NewReader(in), out: out}
	if _, err := play.Play(ctx, cfg, t); err != nil {
		return err
	}
	t.news(g, human)
	fmt.Fprintln(out, "\nresult:")
	r := g.Result()
	for s := range r.Place {
		fmt.Fprintf(out, "  seat %d (%s): place %d, score %d\n", s, names[s], r.Place[s]+1, r.Score[s])
	}
	return nil
}

// news prints what the person's seat saw since it was last shown the log.
func (t *terminal) news(g engine.Game, seat int) {
	log := g.Log()
	for _, e := range engine.EventsFor(nil, log, seat, t.seen) {
		fmt.Fprintf(t.out, "  %s\n", g.DescribeEvent(e))
	}
	t.seen = len(log)
}

// Choose shows the person its view and options and reads its choice: a number among
// the options; anything else is asked again.
func (t *terminal) Choose(_ context.Context, g engine.Game, seat int) (int, error) {
	t.news(g, seat)
	fmt.Fprintf(t.out, "\nyour turn (seat %d), decision %d\n", seat, g.Decisions())
	for _, l := range strings.Split(strings.TrimRight(g.View(seat).String(), "\n"), "\n") {
		fmt.Fprintf(t.out, "  | %s\n", l)
	}
	opts := g.Options()
	for i, o := range opts {
		fmt.Fprintf(t.out, "  %3d  %s\n", i, g.Describe(o))
	}
	for {
		fmt.Fprintf(t.out, "choose 0 to %d: ", len(opts)-1)
		line, err := t.in.ReadString('\n')
		text := strings.TrimSpace(line)
		if text == "" && err != nil {
			fmt.Fprintln(t.out)
			return 0, errInputEnded
		}
		n, perr := strconv.Atoi(text)
		if perr == nil && n >= 0 && n < len(opts) {
			fmt.Fprintf(t.out, "you: %s\n", g.Describe(opts[n]))
			return n, nil
		}
		fmt.Fprintf(t.out, "%q is not an option: type a number from 0 to %d\n", text, len(opts)-1)
		if err != nil {
			return 0, errInputEnded
		}
	}
}

// playWithHuman is `arena play --human SEAT BOT...`: the seats are the person and the
// bots, the person at SEAT.
func playWithHuman(c *cli.Context) error {
	human, players := c.Int("human"), c.NArg()+1
	switch {
	case c.NArg() == 0:
		return fmt.Errorf("--human needs the bots of the other seats, e.g. `arena play --human 0 random`")
	case c.IsSet("players") && c.Int("players") != players:
		return fmt.Errorf("--players %d, but the person and %d bots make %d", c.Int("players"), c.NArg(), players)
	case human < 0 || human >= players:
		return fmt.Errorf("--human %d: the seats are 0 to %d (the person and %d bots)", human, players-1, c.NArg())
	}
	opts, err := gameOptions(c, c.String("game"))
	if err != nil {
		return err
	}
	g, err := engine.NewWith(c.String("game"), c.Uint64("seed"), players, opts)
	if err != nil {
		return err
	}
	entrants, err := resolveBots(c.Args().Slice())
	if err != nil {
		return err
	}
	ctx, stop := interruptible(c.Context, mustLogger(c))
	defer stop()
	return playHuman(ctx, g, opts, human, entrants, c.Uint64("seed"), c.App.Reader, c.App.Writer)
}
