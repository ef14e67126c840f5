package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/internal/logging"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/ladderprom"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol/sandbox"
)

// ladderPlayFlags are the flags of playing the ladder, shared by run and serve.
func ladderPlayFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "game", Required: true, Usage: "the game: " + strings.Join(engine.Names(), ", ")},
		&cli.IntFlag{Name: "players", DefaultText: "as many bots as the game seats", Usage: "seats per table"},
		&cli.Uint64Flag{Name: "seed", DefaultText: "from the clock", Usage: "seed of the choice of tables (every deal comes from fresh entropy)"},
		&cli.DurationFlag{Name: "refresh", Value: time.Minute, Usage: "how often the official ratings on the metrics are refitted (and, for a postgres:// ladder, the tables chosen afresh)"},
	}, blockPlayFlags()...)
}

// blockPlayFlags are the flags of playing blocks, shared by run, serve and worker.
func blockPlayFlags() []cli.Flag {
	d := arena.DefaultClock()
	return append([]cli.Flag{
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1, Usage: "blocks played at once"},
		&cli.DurationFlag{Name: "decision", Value: d.Decision, Usage: "time allowed per decision"},
		&cli.DurationFlag{Name: "bank", Value: d.Bank, Usage: "time bank of a seat for a whole game"},
		&cli.IntFlag{Name: "max-restarts", Value: 3, Usage: "restarts of a crashed bot per block before the run stops"},
		&cli.IntFlag{Name: "bot-games", Value: arena.DefaultPoolGames, Usage: "games a bot process plays, across blocks, before a fresh one replaces it (0: a fresh process for every block)"},
		&cli.DurationFlag{Name: "startup", Value: d.Startup, Usage: "time allowed to start a bot and to begin a game"},
		&cli.DurationFlag{Name: "progress-every", Value: time.Minute, Usage: "log the games recorded this often (each game is a line at --log-level debug)"},
		dbFlag(),
	}, logFlags()...)
}

// ladderMoreFlags are the metrics, game option and sandbox flags of run and serve.
func ladderMoreFlags() []cli.Flag {
	return append(append(append(metricsFlags(ladderMetricsAddr), ladderNameFlag()), gameOptionFlags()...), ladderSandboxFlags()...)
}

func ladderCommand() *cli.Command {
	return &cli.Command{
		Name:  "ladder",
		Usage: "keep the ladder's bots playing and rank them",
		Subcommands: withUsageErrors(
			&cli.Command{
				Name:  "run",
				Usage: "play tables of ladder bots in duplicate blocks and record every game; Ctrl-C stops, the next run resumes",
				Flags: append(append(ladderPlayFlags(),
					&cli.IntFlag{Name: "matches", Usage: "stop after this many games, rounded up to whole blocks"},
					&cli.DurationFlag{Name: "for", Usage: "start no block after this long"},
				), ladderMoreFlags()...),
				Action: ladderRun,
			},
			&cli.Command{
				Name:   "serve",
				Usage:  "own the ladder for good: play it as run does, and serve its pages and an API where authors submit bots",
				Flags:  append(append(ladderPlayFlags(), serveFlags()...), ladderMoreFlags()...),
				Action: ladderServe,
			},
			&cli.Command{
				Name:  "standings",
				Usage: "rank the ladder's bots: games, live Elo, official Elo with its 95% interval, score rate",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "game", Usage: "only this game (default: every game with recorded games); with --board or --deck, only games played with that file"},
					&cli.BoolFlag{Name: "json", Usage: "print JSON"},
					&cli.BoolFlag{Name: "all", Usage: "also list retired versions"},
					dbFlag(),
				}, gameOptionFlags()...),
				Action: ladderStandings,
			},
			ladderMigrateCommand(),
		),
	}
}

func ladderRun(c *cli.Context) error {
	log, err := commandLogger(c)
	if err != nil {
		return err
	}
	if c.NArg() > 0 {
		return fmt.Errorf("ladder run takes no arguments, got %q", c.Args().First())
	}
	if c.IsSet("matches") && c.IsSet("for") {
		return fmt.Errorf("choose one of --matches and --for")
	}
	if c.Int("matches") < 0 || c.Duration("for") < 0 || c.Int("jobs") < 1 {
		return fmt.Errorf("--matches and --for must not be negative, --jobs at least 1")
	}
	playProcs(c.Int("jobs"))
	st, err := openLadder(c)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := interruptible(c.Context, log)
	defer stop()
	ls, err := newLadderSession(ctx, c, st)
	if err != nil {
		return err
	}
	defer ls.close(ctx)
	cfg := ls.cfg
	cfg.Matches, cfg.Duration = c.Int("matches"), c.Duration("for")
	// The run lock keeps `ladder serve`, which shows games in progress, off this
	// ladder: its replays go to the database with their games, no file each (a file
	// per game, and a folder per block, was the largest cost of the run's own process).
	ls.player.Unwatched, ls.player.StoreReplays, ls.player.ReplaysInMemory = true, true, true
	sum, err := ladder.Run(ctx, cfg)
	ls.stopBots(ctx)
	ls.ms.refit(c.Context)
	ls.ms.stopped(err, ctx.Err() != nil && c.Context.Err() == nil, false)
	resumed := ""
	if sum.Resumed > 0 {
		resumed = fmt.Sprintf(", finished %d blocks an earlier run left", sum.Resumed)
	}
	if err != nil && userStopped(ctx) {
		return interrupted{fmt.Errorf("%w: %d games recorded%s; games in flight were dropped and the next run resumes their blocks", errInterrupted, sum.Recorded, resumed)}
	}
	if err != nil {
		ls.failed(err)
		return err
	}
	log.Info(fmt.Sprintf("recorded %d games in %d new blocks%s", sum.Recorded, sum.Blocks, resumed))
	tables, err := ladder.Standings(c.Context, st, ls.game, ladder.StandingsOptions{})
	if err != nil {
		return err
	}
	return writeStandings(c.App.Writer, tables)
}

// ladderSession is what `ladder run` and `ladder serve` share: the database's lock,
// the player of the ladder's blocks, the run's configuration with its reporting of
// every game, and the metrics (nil when not asked for) with their periodic refit.
type ladderSession struct {
	c      *cli.Context
	game   string
	sb     sandbox.Config
	cfg    ladder.RunConfig
	player *ladder.ArenaPlayer
	ms     *metricsServer
	unlock func()
}

// stopBots stops the bot processes the player kept between blocks, politely also
// after an interrupt (the blocks' own were killed with them).
func (ls *ladderSession) stopBots(ctx context.Context) {
	ls.player.Close(context.WithoutCancel(ctx))
}

// newLadderSession reads the playing flags shared by run and serve, takes the
// database's one-run lock and tidies what a killed run left; the metrics it starts
// stop with ctx. close releases the lock.
func newLadderSession(ctx context.Context, c *cli.Context, st ladderStore) (ls *ladderSession, err error) {
	opts, err := gameOptions(c, c.String("game"))
	if err != nil {
		return nil, err
	}
	// The ladder keeps a game played with options apart from the game on its defaults.
	game := engine.Variant(c.String("game"), opts)
	sb, share, err := sandboxConfig(c)
	if err != nil {
		return nil, err
	}
	unlock, err := ladder.LockStore(c.Context, st, st.Path())
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unlock()
		}
	}()
	seed := c.Uint64("seed")
	if !c.IsSet("seed") {
		seed = uint64(time.Now().UnixNano())
	}
	// No bot sees the ladder's data directory (the database, the stored bots, the
	// replays).
	sb = ladder.Sandbox(sb, st.Dir())
	player := blockPlayer(c, st, sb, opts, filepath.Join(st.Dir(), "replays"))
	if err := player.Tidy(c.Context, st, game); err != nil {
		return nil, fmt.Errorf("tidying the replays a killed run left: %w", err)
	}
	ms, lst, err := serveLadderMetrics(ctx, c, st, game)
	if err != nil {
		return nil, err
	}
	if ms != nil {
		player.Observer = ms.ladderObserver()
		ms.describePlayer(player)
		ms.watch(ladderprom.Replays(filepath.Join(st.Dir(), "replays")))
	}
	log := mustLogger(c)
	progress := logging.StartProgress(ctx, log, c.Duration("progress-every"), "games recorded")
	cfg := ladder.RunConfig{Store: lst, Player: player, Game: game, Players: c.Int("players"), Parallel: c.Int("jobs"),
		Seed: seed, MaxForfeitShare: share,
		OnSuspend: func(b store.Bot, reason string) {
			log.Warn(fmt.Sprintf("suspended %s v%d: %s (arena bot reinstate %s)", b.Name, b.Version, reason, b.Name))
		},
		OnGame: func(g store.Match, bots map[int64]store.Bot, live map[int64]float64) {
			progress.Add(1)
			if log.IsDebug() {
				log.Debug("game recorded", "block", g.Block, "rotation", g.Rotation, "seats", gameSeats(g, bots))
			}
			if ms != nil {
				for _, s := range g.Seats {
					b := bots[s.Bot]
					v := strconv.Itoa(b.Version)
					ms.m.GamesRecorded.WithLabelValues(game, b.Name, v).Inc()
					ms.m.LiveRating.WithLabelValues(game, b.Name, v).Set(live[s.Bot])
				}
			}
		}}
	return &ladderSession{c: c, game: game, sb: sb, cfg: cfg, player: player, ms: ms, unlock: unlock}, nil
}

// blockPlayer is the player of the ladder's blocks, from the clock and sandbox flags,
// writing replays under replays; sb is the ladder's sandbox (ladder.Sandbox).
func blockPlayer(c *cli.Context, st store.Store, sb sandbox.Config, opts engine.Options, replays string) *ladder.ArenaPlayer {
	clock := arena.DefaultClock()
	clock.Decision, clock.Bank, clock.Startup = c.Duration("decision"), c.Duration("bank"), c.Duration("startup")
	clock.Match = c.Duration("match-time")
	restarts := c.Int("max-restarts")
	if restarts == 0 {
		restarts = -1 // the flag's 0 means none, the config's 0 means the default
	}
	log := mustLogger(c)
	logHelper(log, sb.Level)
	// A database that keeps the bot programs (shared by many machines) keeps the
	// replays too.
	_, shared := st.(store.Programs)
	var pool *arena.Pool
	if n := c.Int("bot-games"); n > 0 {
		// One process per bot and seat serves every block played at once, as one
		// serves every match of `arena match -j` (0 for a command without -j: 1).
		pool = arena.NewPool(arena.PoolConfig{MaxGames: n, Share: c.Int("jobs")})
	}
	return &ladder.ArenaPlayer{Launch: ladder.Launch(st, builtinLaunch), Clock: clock, MaxRestarts: restarts,
		ReplayDir: replays, Logger: log, Options: opts, Sandbox: sb, StoreReplays: shared, Pool: pool}
}

// failed logs err at once when the metrics linger: main prints a command's error on
// its way out, which is --metrics-linger later.
func (ls *ladderSession) failed(err error) {
	if ls.ms != nil && ls.c.Duration("metrics-linger") > 0 {
		mustLogger(ls.c).Error("the run stopped; the metrics linger", "err", err, "linger", ls.c.Duration("metrics-linger"))
	}
}

// close keeps the metrics up for --metrics-linger, then releases the database.
func (ls *ladderSession) close(ctx context.Context) {
	ls.stopBots(ctx)
	ls.ms.linger(ctx, ls.c.Duration("metrics-linger"))
	ls.unlock()
}

// gameSeats is a recorded game's seats: bot, version, place, and how it ended when
// not ok.
func gameSeats(g store.Match, bots map[int64]store.Bot) string {
	var seats []string
	for _, s := range g.Seats {
		t := fmt.Sprintf("%s v%d %d", bots[s.Bot].Name, bots[s.Bot].Version, s.Place+1)
		if s.Ending != "ok" {
			t += " (" + s.Ending + ")"
		}
		seats = append(seats, t)
	}
	return strings.Join(seats, ", ")
}

func ladderStandings(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("ladder standings takes no arguments, got %q", c.Args().First())
	}
	game := c.String("game")
	for _, name := range optionNames() {
		if game == "" && c.IsSet(name) {
			return fmt.Errorf("--%s needs --game", name)
		}
	}
	if game != "" {
		opts, err := gameOptions(c, game)
		if err != nil {
			return err
		}
		game = engine.Variant(game, opts)
	}
	st, err := openLadderToRead(c)
	if err != nil {
		return err
	}
	defer st.Close()
	tables, err := ladder.Standings(c.Context, st, game, ladder.StandingsOptions{Retired: c.Bool("all")})
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeStandingsJSON(c.App.Writer, tables)
	}
	if len(tables) == 0 {
		fmt.Fprintln(c.App.Writer, "no games recorded yet: arena ladder run --game GAME")
		return nil
	}
	return writeStandings(c.App.Writer, tables)
}

func writeStandings(w io.Writer, tables []ladder.Table) error {
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		anchor := "mean 0"
		if t.Anchor != "" {
			anchor = t.Anchor + " = 0"
		}
		fmt.Fprintf(w, "%s: %d games (Elo anchored at %s)\n", t.Game, t.Games, anchor)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "rank\tbot\tversion\tgames\tlive Elo\tElo\t95% interval\tscore\t")
		for _, s := range t.Standings {
			if s.Games == 0 {
				fmt.Fprintf(tw, "%d\t%s\tv%d\t0\t-\t-\t-\t-\t\n", s.Rank, s.Bot.Name, s.Bot.Version)
				continue
			}
			fmt.Fprintf(tw, "%d\t%s\tv%d\t%d\t%s\t%s\t[%s, %s]\t%.1f%%\t\n", s.Rank, s.Bot.Name, s.Bot.Version, s.Games,
				elo(s.Live), elo(s.Elo), elo(s.Low), elo(s.High), 100*s.Score)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, s := range t.Standings {
			if s.Suspended != "" {
				fmt.Fprintf(w, "suspended: %s v%d %s (arena bot reinstate %s)\n", s.Bot.Name, s.Bot.Version, s.Suspended, s.Bot.Name)
			}
		}
	}
	return nil
}

// elo rounds a rating to whole Elo, without the "-0" that a bound a hair below an
// anchor would print.
func elo(x float64) string {
	r := math.Round(x)
	if r == 0 {
		r = 0
	}
	return fmt.Sprintf("%.0f", r)
}

// standingJSON is one line of `ladder standings --json`; ratings are null before a
// bot's first game.
type standingJSON struct {
	Rank    int      `json:"rank"`
	Bot     string   `json:"bot"`
	Version int      `json:"version"`
	Active  bool     `json:"active"`
	Games   int      `json:"games"`
	LiveElo *float64 `json:"live_elo"`
	Elo     *float64 `json:"elo"`
	EloLow  *float64 `json:"elo_low"`
	EloHigh *float64 `json:"elo_high"`
	Score   *float64 `json:"score"`
	// Suspended is the reason the bot is suspended, when it is.
	Suspended string `json:"suspended,omitempty"`
}

type tableJSON struct {
	Game      string         `json:"game"`
	Games     int            `json:"games"`
	Anchor    string         `json:"anchor,omitempty"`
	Standings []standingJSON `json:"standings"`
}

func writeStandingsJSON(w io.Writer, tables []ladder.Table) error {
	num := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	out := []tableJSON{}
	for _, t := range tables {
		tj := tableJSON{Game: t.Game, Games: t.Games, Anchor: t.Anchor, Standings: []standingJSON{}}
		for _, s := range t.Standings {
			tj.Standings = append(tj.Standings, standingJSON{Rank: s.Rank, Bot: s.Bot.Name, Version: s.Bot.Version, Active: s.Bot.Active(),
				Games: s.Games, LiveElo: num(s.Live), Elo: num(s.Elo), EloLow: num(s.Low), EloHigh: num(s.High), Score: num(s.Score), Suspended: s.Suspended})
		}
		out = append(out, tj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
