package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/arena/sprt"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/builtin"
	"github.com/arena-games/arena/plugins/ismcts"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/watch"
)

func matchCommand() *cli.Command {
	d := arena.DefaultClock()
	return &cli.Command{
		Name:      "match",
		Usage:     "play bots against each other, every deal in every seat rotation, and report Elo",
		ArgsUsage: "BOT BOT [BOT...]  (a built-in name: " + strings.Join(builtin.Names(), ", ") + "; or a path to a bot program)",
		Description: "A bot is a built-in name or the path of a bot program. The built-in ismcts takes settings after\n" +
			"a colon, comma-separated (ismcts:time=100ms,c=0.5):\n\n" + indent(ismcts.SettingsHelp, "   "),
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "game", Value: "ivanhoe", Usage: "the game: " + strings.Join(engine.Names(), ", ")},
			&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 100, Usage: "number of games, rounded up to whole deals (one game per seat rotation)"},
			&cli.Uint64Flag{Name: "seed", Aliases: []string{"s"}, DefaultText: "random, printed in the report", Usage: "seed of the run: the deals and the bots' seeds derive from it (one a bot cannot guess: a bot that guesses it knows every hand)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 1, Usage: "matches played at once"},
			&cli.DurationFlag{Name: "decision", Value: d.Decision, Usage: "time allowed per decision"},
			&cli.DurationFlag{Name: "bank", Value: d.Bank, Usage: "time bank of a seat for a whole match"},
			&cli.DurationFlag{Name: "startup", Value: d.Startup, Usage: "time allowed for a bot to start"},
			&cli.DurationFlag{Name: "shutdown", Value: d.Shutdown, Usage: "time allowed for a bot to exit before it is killed"},
			&cli.DurationFlag{Name: "grace", Value: d.Grace, Usage: "margin added to every deadline for the transport"},
			&cli.IntFlag{Name: "max-restarts", Value: 3, Usage: "restarts of a crashed bot before the run stops"},
			&cli.StringFlag{Name: "replays", Value: "", Usage: "directory for replay files (default arena-replays/GAME-TIME)"},
			&cli.BoolFlag{Name: "no-replays", Usage: "write no replay files"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.StringFlag{Name: "sprt", Usage: "elo0,elo1[,alpha,beta]: stop when a sequential test of the first bot against the second decides (normalized Elo bounds, as fishtest)"},
		}, append(append(append(metricsFlags(matchMetricsAddr), sandboxFlags()...), gameOptionFlags()...), logFlags()...)...),
		Action: runMatch,
	}
}

func runMatch(c *cli.Context) error {
	log, err := commandLogger(c)
	if err != nil {
		return err
	}
	cfg, err := matchConfig(c, log)
	if err != nil {
		return err
	}
	playProcs(cfg.Parallel)
	progress := newProgress(c.App.ErrWriter)
	forfeits := newForfeitNotes(c.App.ErrWriter, progress.tty)
	cfg.OnMatch = func(m *arena.MatchResult, done, total int) { progress.match(m, done, total); forfeits.match(m) }
	ctx, stop := interruptible(c.Context, log)
	defer stop()
	test, err := matchSPRT(c, &cfg)
	if err != nil {
		return err
	}
	srv, err := serveMetrics(c, &cfg)
	if err != nil {
		return err
	}
	if test != nil && srv != nil {
		test.Publish(srv.m, cfg.Entrants[0].Name)
	}
	keep, err := newStderrKeeper(&cfg)
	if err != nil {
		return err
	}
	rep, err := arena.Run(ctx, cfg)
	progress.done()
	srv.stopped(err, ctx.Err() != nil && c.Context.Err() == nil, rep != nil && rep.Stopped)
	runErr := err
	defer func() { keep.finish(rep, runErr, c.App.ErrWriter) }() // after the report
	// A Ctrl-C that ends the metrics' linger after the run does not make it a stopped
	// run: only one during the run does.
	byUser := userStopped(ctx)
	srv.linger(ctx, c.Duration("metrics-linger"))
	if rep == nil {
		return err
	}
	if byUser {
		err = interrupted{fmt.Errorf("%w: every bot process was stopped; the report covers the %d deals completed", errInterrupted, rep.Deals)}
		rep.StoppedBy = "interrupted by the user"
	}
	if werr := writeMatchReport(c, rep, test, cfg.Entrants[0].Name); werr != nil && err == nil {
		err = werr
	}
	return err
}

// matchConfig is the run the flags and arguments of `arena match` ask for: the game
// and its options, a bot per seat, the clock, the replays' directory, the sandbox.
func matchConfig(c *cli.Context, log hclog.Logger) (arena.Config, error) {
	if c.NArg() < 1 {
		return arena.Config{}, fmt.Errorf("match needs one bot per seat, e.g. `arena match random random`")
	}
	opts, err := gameOptions(c, c.String("game"))
	if err != nil {
		return arena.Config{}, err
	}
	entrants, err := resolveBots(c.Args().Slice())
	if err != nil {
		return arena.Config{}, err
	}
	replays := c.String("replays")
	if replays == "" && !c.Bool("no-replays") {
		if replays, err = freshDir(filepath.Join("arena-replays", c.String("game")+"-"+time.Now().UTC().Format("20060102-150405"))); err != nil {
			return arena.Config{}, err
		}
	}
	if c.Bool("no-replays") {
		replays = ""
	}
	sb, share, err := sandboxConfig(c)
	if err != nil {
		return arena.Config{}, err
	}
	logHelper(log, sb.Level)
	cfg := arena.Config{
		Game: c.String("game"), Options: opts, Entrants: entrants, Launcher: protocol.Launcher{}, Games: c.Int("games"), Seed: runSeed(c), Parallel: c.Int("jobs"),
		Clock: arena.Clock{Decision: c.Duration("decision"), Bank: c.Duration("bank"), Startup: c.Duration("startup"),
			Shutdown: c.Duration("shutdown"), Grace: c.Duration("grace"), Match: c.Duration("match-time")},
		MaxRestarts: c.Int("max-restarts"), ReplayDir: replays, Logger: log,
		Sandbox: sb, MaxForfeitShare: share, KeepMatches: c.Bool("json"),
	}
	if cfg.MaxRestarts == 0 {
		cfg.MaxRestarts = -1 // the flag's 0 means none, the config's 0 means the default
	}
	return cfg, nil
}

// matchSPRT sets up --sprt, if given, to stop the run when it decides (and to run
// until then, without --games); it checks that some game is to be played.
func matchSPRT(c *cli.Context, cfg *arena.Config) (*sprt.Run, error) {
	var test *sprt.Run
	if spec := c.String("sprt"); spec != "" {
		var err error
		if test, err = sprt.Parse(spec); err != nil {
			return nil, fmt.Errorf("--sprt %w", err)
		}
		if len(cfg.Entrants) != 2 {
			return nil, fmt.Errorf("--sprt tests one bot against another: give two bots, not %d", len(cfg.Entrants))
		}
		cfg.Stop = test.Stop
		if !c.IsSet("games") {
			cfg.Games = 0 // until the test decides
		}
	}
	if cfg.Games <= 0 && cfg.Stop == nil {
		return nil, fmt.Errorf("--games %d: give at least one game", cfg.Games)
	}
	return test, nil
}

// writeMatchReport prints the report (table or --json) and the SPRT's verdict.
func writeMatchReport(c *cli.Context, rep *arena.Report, test *sprt.Run, first string) error {
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(matchJSON{Report: rep, SPRT: test.JSON()})
	}
	if err := rep.WriteTable(c.App.Writer); err != nil {
		return err
	}
	if test != nil {
		return test.Write(c.App.Writer, first)
	}
	return nil
}

// matchJSON is `arena match --json`: the report, and the SPRT's state with --sprt.
type matchJSON struct {
	*arena.Report
	SPRT *sprt.JSON `json:"sprt,omitempty"`
}

// resolveBots turns command-line bots into entrants: a built-in name runs its own
// program or this very binary as `arena serve-bot NAME` (builtinLaunch); anything
// with a slash, or an existing file, is a bot program. Repeated names get #1, #2... so
// that the report tells them apart.
func resolveBots(args []string) ([]arena.Entrant, error) {
	count := map[string]int{}
	for _, a := range args {
		count[botName(a)]++
	}
	seen := map[string]int{}
	var out []arena.Entrant
	for _, a := range args {
		name := botName(a)
		if count[name] > 1 {
			seen[name]++
			name = fmt.Sprintf("%s#%d", name, seen[name])
		}
		switch {
		case !strings.ContainsRune(a, '/') && builtin.Has(a):
			lc, err := builtinLaunch(a)
			if err != nil {
				return nil, err
			}
			out = append(out, arena.Entrant{Name: name, Launch: lc})
		case strings.ContainsRune(a, '/') || fileExists(a):
			path, err := filepath.Abs(a)
			if err != nil {
				return nil, err
			}
			st, err := os.Stat(path)
			switch {
			case err != nil:
				return nil, fmt.Errorf("bot %s: %w", a, err)
			case st.IsDir() || st.Mode()&0o111 == 0:
				return nil, fmt.Errorf("bot %s is not an executable file", a)
			}
			out = append(out, arena.Entrant{Name: name, Launch: protocol.LaunchConfig{Path: path}})
		case builtin.IsBuiltinName(a):
			return nil, builtin.Check(a) // a built-in bot with wrong settings
		default:
			return nil, fmt.Errorf("unknown bot %q: not a built-in bot (%s) nor a path to a bot program", a, strings.Join(builtin.Names(), ", "))
		}
	}
	return out, nil
}

// botName is how a bot is named in reports and metrics: a program by its file's base
// name (never its path, which differs between machines), a built-in bot by its name.
func botName(arg string) string { return filepath.Base(arg) }

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// progress shows a live bar on a terminal and plain lines otherwise.
type progress struct {
	w    io.Writer
	tty  bool
	last time.Time
	n    int
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) match(m *arena.MatchResult, done, total int) {
	p.n = max(total, done)
	if !p.tty {
		var seats []string
		for _, s := range m.Seats {
			t := fmt.Sprintf("%s %s", s.Bot, watch.Ordinal(s.Place+1))
			if s.Ending != arena.OK {
				t += " (" + s.Ending.String() + ")"
			}
			seats = append(seats, t)
		}
		fmt.Fprintf(p.w, "%s %s: %s\n", count(done, total), m.ID, strings.Join(seats, ", "))
		return
	}
	if (total == 0 || done < total) && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	if total == 0 { // until a test decides: no end to draw
		fmt.Fprintf(p.w, "\r%d games", done)
		return
	}
	const width = 40
	fill := width * done / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games", strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total)
}

// count is "done/total", or "done" when the run has no set length.
func count(done, total int) string {
	if total == 0 {
		return strconv.Itoa(done)
	}
	return fmt.Sprintf("%d/%d", done, total)
}

func (p *progress) done() {
	if p.tty && p.n > 0 {
		fmt.Fprintln(p.w)
	}
}

// freshDir creates a directory no earlier run has used: base, else base-2, base-3...
// so that two runs started in the same second never share replay files.
func freshDir(base string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return "", err
	}
	for i := 1; ; i++ {
		dir := base
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) || i > 1000 {
			return "", err
		}
	}
}

// guessable is where seeds become few enough for a bot to try each within a match (a
// deal costs microseconds) and check it against its own hand.
const guessable = 1 << 48

// runSeed is --seed, or a fresh random seed: the report prints it, so that the run can
// be repeated.
func runSeed(c *cli.Context) uint64 {
	if !c.IsSet("seed") {
		return arena.NewSeed()
	}
	s := c.Uint64("seed")
	if s < guessable {
		mustLogger(c).Warn(fmt.Sprintf("--seed %d is small enough for a bot to guess, and with it every hand; leave --seed out for a random one", s))
	}
	return s
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
