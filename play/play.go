//go:build linux

// Package play plays one game in which a person holds a seat and bot processes the
// others: `arena play --human` at a terminal, and a served ladder's unrated games in
// the browser. Each bot is a bot process of its own, launched as the caller says
// (sandboxed as a match's are), asked each of its decisions within the clock, and
// told the result; a bot that fails forfeits and the game's fallback plays its seat.
// The person has no deadline: the game waits for them (or for ctx).
package play

import (
	"context"
	"fmt"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
)

// Person chooses for the person's seat: it is asked at each of the seat's decisions,
// with the game as it stands (to read, never to change), and returns an option's
// index; an error ends the game.
type Person interface {
	Choose(ctx context.Context, g engine.Game, seat int) (int, error)
}

// Bot is a bot of one seat: its name and how to start its process.
type Bot struct {
	Name   string
	Launch protocol.LaunchConfig
}

// Config is one game.
type Config struct {
	Game engine.Game
	// Options are the game's options, sent to each bot at the start.
	Options engine.Options
	// Seat is the person's seat; Bots the others', in seat order without it.
	Seat int
	Bots []Bot
	// Seed seeds the bots (each seat its own).
	Seed  uint64
	Clock arena.Clock
	// MatchID names the game to the bots.
	MatchID string
	// Forfeit, when set, hears of a bot's forfeit: its seat and why.
	Forfeit func(seat int, why string)
	// Decided, when set, hears of every decision once applied: the seat, the option
	// chosen in words, and the events it brought (g's log from log on).
	Decided func(g engine.Game, seat int, chose string, log int)
}

// seat is a bot's process and seat; forfeited when it failed, the fallback plays.
type seat struct {
	name      string
	proc      *protocol.Process
	conn      *protocol.Seat
	wire      *protocol.SeatRequests
	forfeited bool
}

// Game is a game under way.
type game struct {
	cfg  Config
	bots []*seat
}

// Play plays the game to its end, and returns its result; a bot that does not start
// forfeits, and so does one that fails later. Every bot process is stopped before it
// returns.
func Play(ctx context.Context, cfg Config, person Person) (engine.Result, error) {
	g := cfg.Game
	if cfg.Seat < 0 || cfg.Seat >= g.Players() || len(cfg.Bots) != g.Players()-1 {
		return engine.Result{}, fmt.Errorf("a person at seat %d and %d bots do not seat a %d-player game", cfg.Seat, len(cfg.Bots), g.Players())
	}
	codec, err := protocol.CodecFor(g.Name())
	if err != nil {
		return engine.Result{}, err
	}
	if cfg.MatchID == "" {
		cfg.MatchID = "play"
	}
	p := &game{cfg: cfg, bots: make([]*seat, g.Players())}
	defer p.stop()
	next := 0
	for s := range g.Players() {
		if s == cfg.Seat {
			continue
		}
		b := &seat{name: cfg.Bots[next].Name, wire: protocol.NewSeatRequests(codec, cfg.MatchID, s)}
		p.bots[s] = b
		if err := p.start(ctx, b, s, cfg.Bots[next].Launch, cfg.Seed*31+uint64(s)); err != nil {
			return engine.Result{}, err
		}
		next++
	}
	for !g.Terminal() {
		if err := ctx.Err(); err != nil {
			return engine.Result{}, err
		}
		s := g.ToMove()
		var choice int
		if s == cfg.Seat {
			if choice, err = person.Choose(ctx, g, s); err != nil {
				return engine.Result{}, err
			}
			if choice < 0 || choice >= len(g.Options()) {
				return engine.Result{}, fmt.Errorf("option %d of %d", choice, len(g.Options()))
			}
		} else {
			choice = p.botChoice(s)
		}
		n, text := len(g.Log()), g.Describe(g.Options()[choice])
		if err := g.Apply(choice); err != nil {
			return engine.Result{}, err
		}
		if cfg.Decided != nil {
			cfg.Decided(g, s, text, n)
		}
	}
	p.tellResult()
	return g.Result(), nil
}

// start launches a bot and opens its seat; a bot that does not start forfeits.
func (p *game) start(ctx context.Context, b *seat, s int, launch protocol.LaunchConfig, seed uint64) error {
	clock := p.cfg.Clock
	if launch.StartTimeout == 0 {
		launch.StartTimeout = clock.Startup
	}
	proc, err := protocol.Launch(ctx, launch)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.forfeit(s, b, "it did not start: "+err.Error())
		return nil
	}
	b.proc = proc
	g := p.cfg.Game
	start := &botpb.StartRequest{MatchId: p.cfg.MatchID, Game: g.Name(), Seat: int32(s), Players: int32(g.Players()),
		Seed: seed, DecisionDeadlineUs: clock.Decision.Microseconds(), BankUs: clock.Bank.Microseconds(), Options: p.cfg.Options}
	if b.conn, err = proc.OpenSeat(ctx, start, clock.Startup); err != nil {
		p.forfeit(s, b, "it did not accept the match: "+err.Error())
	}
	return nil
}

// botChoice asks a bot for its decision within the clock's decision time; a bot that
// fails forfeits and the game's fallback plays for it from then on.
func (p *game) botChoice(s int) int {
	b, g := p.bots[s], p.cfg.Game
	opts := g.Options()
	if !b.forfeited {
		req, err := b.wire.Next(g)
		if err == nil {
			clock := p.cfg.Clock
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
		p.forfeit(s, b, err.Error())
	}
	return g.Fallback()
}

func (p *game) forfeit(s int, b *seat, why string) {
	b.forfeited = true
	if p.cfg.Forfeit != nil {
		p.cfg.Forfeit(s, why)
	}
}

// tellResult tells the bots how the game ended.
func (p *game) tellResult() {
	r := p.cfg.Game.Result()
	var place, score []int32
	for s := range r.Place {
		place, score = append(place, int32(r.Place[s])), append(score, int32(r.Score[s]))
	}
	for s, b := range p.bots {
		if b != nil && b.conn != nil && !b.forfeited {
			_ = b.conn.Close(&botpb.EndRequest{MatchId: p.cfg.MatchID, Seat: int32(s), Place: place, Score: score, Adjudicated: r.Adjudicated},
				protocol.EndMatchTimeout)
		}
	}
}

// stop ends every bot process, politely first.
func (p *game) stop() {
	for _, b := range p.bots {
		if b != nil && b.proc != nil {
			b.proc.Shutdown(p.cfg.Clock.Shutdown)
		}
	}
}

// Names are the seats' names: the bots' in their seats, person at the person's.
func (cfg Config) Names(person string) []string {
	out := make([]string, 0, len(cfg.Bots)+1)
	for _, b := range cfg.Bots {
		out = append(out, b.Name)
	}
	return append(out[:cfg.Seat], append([]string{person}, out[cfg.Seat:]...)...)
}
