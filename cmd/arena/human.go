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
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
)

// humanGame is `arena play --human SEAT BOT...`: a person at the terminal takes one
// seat, the bots (built-in names or programs, as `arena match` takes them) the others,
// each a sandboxed bot process asked as in a match. The person sees what a bot in the
// seat would be sent (its view, the events it saw, its options in words) and has no
// deadline; a bot keeps the match clock of `arena match`.
type humanGame struct {
	g       engine.Game
	opts    engine.Options // the game's, sent to each bot at the start
	human   int
	in      *bufio.Reader
	out     io.Writer
	seen    int // the log's length the person has been shown
	bots    []*botSeat
	matchID string
}

// botSeat is a bot's process and seat; forfeited when it failed, the fallback plays.
type botSeat struct {
	name      string
	proc      *protocol.Process
	conn      *protocol.Seat
	wire      *protocol.SeatRequests
	forfeited bool
}

// errInputEnded ends a game whose person stopped answering (Ctrl-D, a closed pipe).
var errInputEnded = errors.New("standard input ended before the game did")

// playHuman plays g with the person at seat human and the entrants at the other seats,
// in order, and prints the result.
func playHuman(ctx context.Context, g engine.Game, opts engine.Options, human int, entrants []arena.Entrant, seed uint64, in io.Reader, out io.Writer) error {
	codec, err := protocol.CodecFor(g.Name())
	if err != nil {
		return err
	}
	h := &humanGame{g: g, opts: opts, human: human, in: bufio.NewReader(in), out: out, bots: make([]*botSeat, g.Players()), matchID: "play"}
	defer h.stop()
	next := 0
	for s := range g.Players() {
		if s == human {
			continue
		}
		e := entrants[next]
		next++
		b := &botSeat{name: e.Name, wire: protocol.NewSeatRequests(codec, h.matchID, s)}
		h.bots[s] = b
		if err := h.start(ctx, b, s, e.Launch, seed*31+uint64(s)); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "%s, %d players: you are seat %d; %s\n", g.Name(), g.Players(), human, h.seatList())
	for !g.Terminal() {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := g.ToMove()
		var choice int
		if s == human {
			choice, err = h.ask()
		} else {
			choice = h.botChoice(s)
		}
		if err != nil {
			return err
		}
		if err := g.Apply(choice); err != nil {
			return err
		}
	}
	h.news()
	h.result()
	return nil
}

func (h *humanGame) seatList() string {
	var parts []string
	for s, b := range h.bots {
		if b != nil {
			parts = append(parts, fmt.Sprintf("seat %d is %s", s, b.name))
		}
	}
	return strings.Join(parts, ", ")
}

// start launches a bot and opens its seat; a bot that does not start forfeits.
func (h *humanGame) start(ctx context.Context, b *botSeat, seat int, launch protocol.LaunchConfig, seed uint64) error {
	clock := arena.DefaultClock()
	proc, err := protocol.Launch(ctx, launch)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		h.forfeit(seat, b, "it did not start: "+err.Error())
		return nil
	}
	b.proc = proc
	start := &botpb.StartRequest{MatchId: h.matchID, Game: h.g.Name(), Seat: int32(seat), Players: int32(h.g.Players()),
		Seed: seed, DecisionDeadlineUs: clock.Decision.Microseconds(), BankUs: clock.Bank.Microseconds(), Options: h.opts}
	if b.conn, err = proc.OpenSeat(ctx, start, clock.Startup); err != nil {
		h.forfeit(seat, b, "it did not accept the match: "+err.Error())
	}
	return nil
}

// botChoice asks a bot for its decision, within the match clock's decision time; a
// bot that fails forfeits and the game's fallback plays for it from then on.
func (h *humanGame) botChoice(s int) int {
	b := h.bots[s]
	opts := h.g.Options()
	if !b.forfeited {
		req, err := b.wire.Next(h.g)
		if err == nil {
			clock := arena.DefaultClock()
			req.DeadlineUs = clock.Decision.Microseconds()
			var rep *botpb.DecideReply
			rep, _, err = b.conn.Decide(req, clock.Decision+clock.Grace)
			if err == nil && (rep.Choice < 0 || int(rep.Choice) >= len(opts)) {
				err = fmt.Errorf("chose option %d of %d", rep.Choice, len(opts))
			}
			if err == nil {
				return int(rep.Choice)
			}
		}
		h.forfeit(s, b, err.Error())
	}
	return h.g.Fallback()
}

func (h *humanGame) forfeit(s int, b *botSeat, why string) {
	b.forfeited = true
	fmt.Fprintf(h.out, "** seat %d (%s) forfeits: %s; the game's fallback plays for it\n", s, b.name, why)
}

// news prints what the person's seat saw since it was last shown the log.
func (h *humanGame) news() {
	log := h.g.Log()
	for _, e := range engine.EventsFor(nil, log, h.human, h.seen) {
		fmt.Fprintf(h.out, "  %s\n", h.g.DescribeEvent(e))
	}
	h.seen = len(log)
}

// ask shows the person its view and options and reads its choice: a number among the
// options; anything else is asked again.
func (h *humanGame) ask() (int, error) {
	h.news()
	fmt.Fprintf(h.out, "\nyour turn (seat %d), decision %d\n", h.human, h.g.Decisions())
	for _, l := range strings.Split(strings.TrimRight(h.g.View(h.human).String(), "\n"), "\n") {
		fmt.Fprintf(h.out, "  | %s\n", l)
	}
	opts := h.g.Options()
	for i, o := range opts {
		fmt.Fprintf(h.out, "  %3d  %s\n", i, h.g.Describe(o))
	}
	for {
		fmt.Fprintf(h.out, "choose 0 to %d: ", len(opts)-1)
		line, err := h.in.ReadString('\n')
		text := strings.TrimSpace(line)
		if text == "" && err != nil {
			fmt.Fprintln(h.out)
			return 0, errInputEnded
		}
		n, perr := strconv.Atoi(text)
		if perr == nil && n >= 0 && n < len(opts) {
			fmt.Fprintf(h.out, "you: %s\n", h.g.Describe(opts[n]))
			return n, nil
		}
		fmt.Fprintf(h.out, "%q is not an option: type a number from 0 to %d\n", text, len(opts)-1)
		if err != nil {
			return 0, errInputEnded
		}
	}
}

// result prints the places and tells the bots how the game ended.
func (h *humanGame) result() {
	r := h.g.Result()
	fmt.Fprintln(h.out, "\nresult:")
	var place, score []int32
	for s := range r.Place {
		who := "you"
		if b := h.bots[s]; b != nil {
			who = b.name
		}
		fmt.Fprintf(h.out, "  seat %d (%s): place %d, score %d\n", s, who, r.Place[s]+1, r.Score[s])
		place, score = append(place, int32(r.Place[s])), append(score, int32(r.Score[s]))
	}
	for s, b := range h.bots {
		if b != nil && b.conn != nil && !b.forfeited {
			_ = b.conn.Close(&botpb.EndRequest{MatchId: h.matchID, Seat: int32(s), Place: place, Score: score, Adjudicated: r.Adjudicated},
				protocol.EndMatchTimeout)
		}
	}
}

// stop ends every bot process, politely first.
func (h *humanGame) stop() {
	for _, b := range h.bots {
		if b != nil && b.proc != nil {
			b.proc.Shutdown(arena.DefaultClock().Shutdown)
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
