// Command arenabench measures what a decision and a start cost in the arena against
// what the transport alone costs, as ratios from one run of interleaved repetitions,
// so that a change can be judged on a shared, noisy machine:
//
//	go run ./cmd/arenabench                 # builds ./cmd/arena, 7 repetitions
//	go run ./cmd/arenabench --base OLDBIN   # also the arena at OLDBIN, ratio new/old
//
// Each repetition runs, in an order that alternates between repetitions:
//   - `arena match random random --no-replays --json` on two-player Ivanhoe with the
//     default sandbox, at -j 1 and at -j 2 (real processes, as a user runs it), and
//     the same with replays;
//   - `arena ladder run` of as many games on a fresh SQLite ladder of the same two
//     built-in bots, at -j 1 and -j 2 (ladder.go), each right beside its match run
//     (--ladder-only measures these alone, with --base the base arena's beside them);
//   - with a PostgreSQL URL (--postgres, default $ARENA_TEST_POSTGRES), `arena worker`
//     at -j 1, 2 and 4 on a fresh ladder of its own schema, `arena ladder serve`
//     coordinating, as many games from the worker's exec (worker.go), right beside
//     the ladder run (and `arena match` at -j 4, with and without replays); with
//     --workers-only, only these (and with --base, the base arena's worker);
//   - a bare gRPC bidirectional stream (this program, served as a go-plugin process of
//     its own: no sandbox, no SDK) carrying messages of the sizes the arena's two seats
//     receive in random games, one stream and two at once, and the same server on one
//     P (GOMAXPROCS=1, as the Go SDK serves a bot);
//   - a bare go-plugin start (exec, handshake and the first round trip), one alone and
//     two at once (a two-seat match starts two bots), and `arena match` runs of one
//     deal, for the start of a run to its first decision (and the same runs with
//     --sandbox none, for the sandbox's share of it, and with the Go SDK's random bot
//     program in both seats, as a user's bots start), and the CPU time a bot program
//     takes from its exec to its handshake (the arena's `serve-bot`, the Go SDK's
//     random program, the bare process), which a busy machine blurs less than the
//     wall clock (startcpu.go); --starts-only measures these rows alone;
//   - the layers between the two: the same requests as structured messages, then
//     through the Go SDK in the bare process, then through the arena's own bot
//     process, then protocol.Seat, then the sandbox (layers.go).
//
// With --fastchess DIR, each repetition also runs the chess tournament manager
// fastchess on its random_mover engine, for the arena's cost per decision against its
// cost per move (fastchess.go); --fastchess-only measures that row alone.
//
// It prints every figure as the median and range over the repetitions of the ratio
// within each repetition, with the load average seen during the run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/arena-games/arena/protocol/botpb"
	"github.com/arena-games/arena/protocol/sandbox"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == bareServeArg {
		serveBare()
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "arenabench:", err)
		os.Exit(1)
	}
}

type options struct {
	arena, base string
	postgres    string
	reps, games int
	trips       int
	starts      int
	startsOnly  bool
	workersOnly bool
	ladderOnly  bool
	fastchess   string
	chessOnly   bool
}

func run() error {
	var o options
	flag.StringVar(&o.arena, "arena", "", "the arena binary to measure, with arena-sandbox beside it if it uses that and the Go SDK's random bot program (cmd/bots/random) beside it (default: build the three into a temporary folder, as the README's build command does)")
	flag.StringVar(&o.base, "base", "", "another arena binary, measured in the same repetitions for new/base ratios (with --workers-only: its worker)")
	flag.StringVar(&o.postgres, "postgres", os.Getenv("ARENA_TEST_POSTGRES"), "a PostgreSQL URL (as .ci/postgres.sh start prints) for the `arena worker` rows, each run in a schema of its own (default $ARENA_TEST_POSTGRES; none: no worker rows)")
	flag.IntVar(&o.reps, "reps", 7, "interleaved repetitions")
	flag.IntVar(&o.games, "games", 400, "games of each `arena match` run")
	flag.IntVar(&o.trips, "round-trips", 4000, "round trips of each bare stream run (per stream)")
	flag.IntVar(&o.starts, "starts", 5, "starts measured per repetition, each side (their median is the repetition's figure)")
	flag.BoolVar(&o.startsOnly, "starts-only", false, "measure only the start rows (bare go-plugin starts, and `arena match` of one deal to its first decision)")
	flag.BoolVar(&o.workersOnly, "workers-only", false, "measure only the `arena worker` rows (needs --postgres): the worker and `arena match` with and without replays at -j 1, 2 and 4")
	flag.BoolVar(&o.ladderOnly, "ladder-only", false, "measure only the `ladder run` rows: the ladder and `arena match` with and without replays at -j 1 and 2 (with --base, the base arena's ladder and match too)")
	flag.StringVar(&o.fastchess, "fastchess", "", "a folder with a fastchess build and its random_mover engine (app/tests/mock/engine/random_mover.cpp), for the row per decision / fastchess per move (default: no such row)")
	flag.BoolVar(&o.chessOnly, "fastchess-only", false, "measure only `arena match` and fastchess at -j 1 and 2 (needs --fastchess)")
	flag.Parse()
	if o.chessOnly && o.fastchess == "" {
		return fmt.Errorf("--fastchess-only needs --fastchess DIR")
	}
	if o.workersOnly && o.postgres == "" {
		return fmt.Errorf("--workers-only needs a PostgreSQL URL (--postgres or $ARENA_TEST_POSTGRES)")
	}
	if o.reps < 1 || o.games < 2 || o.trips < 1 || o.starts < 1 {
		return fmt.Errorf("--reps, --games, --round-trips and --starts must be positive (games at least 2)")
	}
	if o.arena == "" {
		dir, err := os.MkdirTemp("", "arenabench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.arena = filepath.Join(dir, "arena")
		build := exec.Command("go", "build", "-o", dir+"/", "./cmd/arena", "./cmd/arena-sandbox", "./cmd/bots/random")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building the arena (run from the repository's root, or give --arena): %v", err)
		}
	}
	msgs, reqs, reply, err := wireSizes(o.trips, 1)
	if err != nil {
		return err
	}
	w := &world{msgs: msgs[:o.trips], reqs: reqs[:o.trips], reply: reply,
		sdkBot: filepath.Join(filepath.Dir(o.arena), "random")}
	if _, err := os.Stat(w.sdkBot); err != nil {
		return fmt.Errorf("the Go SDK's random bot program is not beside the arena (go build -o DIR/ ./cmd/bots/random): %v", err)
	}
	if o.chessOnly {
		// The bare stream too: the floor under any go-plugin transport's decision.
		if w.bare, err = startBare(payload(reply)); err != nil {
			return fmt.Errorf("starting the bare stream's process: %v", err)
		}
		defer w.bare.stop()
		fmt.Printf("arenabench: %d repetitions of arena match (%d games), fastchess (%d games of random_mover) and the bare stream (%d round trips)\n", o.reps, o.games, fastchessGames, o.trips)
		return runReps(o, w, measureChess, chessRows())
	}
	if o.startsOnly {
		fmt.Printf("arenabench: %d repetitions of the start rows, %d starts each\n", o.reps, o.starts)
		return runReps(o, w, measure, startRows(o.base != ""))
	}
	if w.ladder, err = newLadderTemplate(o.arena); err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(w.ladder))
	if o.base != "" {
		if w.baseLadder, err = newLadderTemplate(o.base); err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(w.baseLadder))
	}
	if o.ladderOnly {
		fmt.Printf("arenabench: %d repetitions of the ladder rows, %d games each run\n", o.reps, o.games)
		return runReps(o, w, measureLadder, ladderRows(o.base != ""))
	}
	if o.postgres != "" {
		if w.pg, err = openPG(context.Background(), o.postgres); err != nil {
			return err
		}
		defer w.pg.close()
	}
	if o.workersOnly {
		fmt.Printf("arenabench: %d repetitions of the worker rows, %d games each run\n", o.reps, o.games)
		return runReps(o, w, measureWorkers, workerRows(o.base != ""))
	}
	if w.bare, err = startBare(payload(reply)); err != nil {
		return fmt.Errorf("starting the bare stream's process: %v", err)
	}
	defer w.bare.stop()
	// The same bare server on one P, as the Go SDK serves a bot: how much of what that
	// saves any go-plugin transport would save too.
	if w.bareOneP, err = startBare(payload(reply), "GOMAXPROCS=1"); err != nil {
		return fmt.Errorf("starting the bare stream's process: %v", err)
	}
	defer w.bareOneP.stop()
	if w.bareOneP2, err = startBare(payload(reply), "GOMAXPROCS=1"); err != nil {
		return fmt.Errorf("starting the bare stream's process: %v", err)
	}
	defer w.bareOneP2.stop()
	for _, r := range w.reqs {
		w.seats = append(w.seats, int(r.Seat%2))
	}
	w.sdkBare = sdkInBare(w.bare)
	if w.plain, err = launchBot(o.arena, sandbox.None); err != nil {
		return err
	}
	defer w.plain.stop()
	if w.boxed, err = launchBot(o.arena, sandbox.Auto); err != nil {
		return err
	}
	defer w.boxed.stop()
	if w.boxed2, err = launchBot(o.arena, sandbox.Auto); err != nil {
		return err
	}
	defer w.boxed2.stop()
	fmt.Printf("arenabench: %d repetitions; arena match: %d games of 2-player Ivanhoe, random vs random, default sandbox, --no-replays; bare stream: %d round trips, request %d-%d bytes, reply %d bytes\n",
		o.reps, o.games, o.trips, minSize(w.msgs), maxSize(w.msgs), reply)
	table := rows(o.base != "", w.pg != nil)
	if o.fastchess != "" {
		table = append(table, chessRows()...)
	}
	return runReps(o, w, measure, table)
}

// runReps measures the repetitions with one and prints the table of these rows.
func runReps(o options, w *world, one func(options, *world, int) (rep, error), table []row) error {
	var reps []rep
	for i := range o.reps {
		r, err := one(o, w, i)
		if err != nil {
			return err
		}
		reps = append(reps, r)
		fmt.Fprintf(os.Stderr, "repetition %d/%d done (load %.2f)\n", i+1, o.reps, r.load)
	}
	printTable(os.Stdout, reps, table)
	return nil
}

// world is what every repetition measures with: the processes and the messages.
type world struct {
	bare         *bareProc
	bareOneP     *bareProc // the bare server with GOMAXPROCS=1
	bareOneP2    *bareProc // another, for two servers in turn as a match's two bots
	seats        []int     // the seat each message is for
	sdkBare      *botLayer // the SDK's service in the bare process
	plain, boxed *botLayer // the arena's random bot without and with the sandbox
	boxed2       *botLayer // a second boxed bot, for the two seats of a match
	sdkBot       string    // the Go SDK's random bot as a program of its own, beside the arena
	ladder       string    // the template ladder's database (ladder.go)
	baseLadder   string    // the same, made by the base arena (with --base)
	pg           *pgLadder // the worker rows' cluster (worker.go); nil for none
	msgs         []*wrapperspb.BytesValue
	reqs         []*botpb.DecideRequest
	reply        int
}

// rep is one repetition's figures.
type rep struct {
	j1, j2       matchRun
	r1, r2       matchRun  // with replays, as a ladder writes them
	l1, l2       ladderRun // `arena ladder run` of as many games
	j4, r4       matchRun  // -j 4, without and with replays (for the worker rows)
	w1, w2, w4   workerRun // `arena worker` on PostgreSQL, as many games (with --postgres)
	bw1, bw2     workerRun // the base arena's worker (--workers-only --base)
	bw4          workerRun
	b1, b2       matchRun  // the base arena, with --base
	fc1, fc2     chessRun  // fastchess at -concurrency 1 and 2, with --fastchess
	bl1, bl2     ladderRun // the base arena's ladder run, with --base
	bare1, bare2 time.Duration
	bareOneP     time.Duration // a bare round trip, the server on one P
	bareInTurn   time.Duration // a bare round trip, two one-P servers asked in turn by seat
	lat2         time.Duration // a bare round trip's latency with two streams in flight
	pluginStart  time.Duration
	pluginStart2 time.Duration // two bare go-plugin starts at once, as a 2-seat match starts its bots
	// start to first decision: `arena match` runs of one deal (medians of --starts),
	// the same with --sandbox none, and with the Go SDK's random program in both seats
	first, baseFirst, firstNone, firstSDK time.Duration
	// the whole `arena match` command of one deal, start to exit (medians of --starts)
	oneDeal, baseOneDeal time.Duration
	// CPU time from exec to the handshake: `arena serve-bot random`, the Go SDK's
	// random program, the bare process (startcpu.go)
	cpuArena, cpuSDK, cpuBare time.Duration
	// the layers, per round trip (see layers.go)
	structured, sdkBare, sdk, seat, boxed, twoSeats time.Duration
	load, loadLast                                  float64
}

// measure runs one repetition; odd repetitions run their steps in reverse order, so
// that a drift of the machine's load over the run favours no side.
func measure(o options, w *world, i int) (rep, error) {
	r := rep{load: loadAvg()}
	seed := uint64(i + 1)
	starts := []func() error{
		func() (err error) {
			r.pluginStart, err = medianOf(o.starts, func() (time.Duration, error) { return barePluginStarts(1, w.msgs[0], payload(w.reply)) })
			return
		},
		func() (err error) {
			r.pluginStart2, err = medianOf(o.starts, func() (time.Duration, error) { return barePluginStarts(2, w.msgs[0], payload(w.reply)) })
			return
		},
		func() (err error) { r.first, r.oneDeal, err = firstDecision(o.arena, "random", o.starts, seed); return },
		func() (err error) {
			r.firstNone, _, err = firstDecision(o.arena, "random", o.starts, seed, "--sandbox", "none")
			return
		},
		func() (err error) { r.firstSDK, _, err = firstDecision(o.arena, w.sdkBot, o.starts, seed); return },
		func() (err error) {
			r.cpuArena, err = medianOf(o.starts, func() (time.Duration, error) { return botCPU(o.arena, "serve-bot", "random") })
			return
		},
		func() (err error) {
			r.cpuSDK, err = medianOf(o.starts, func() (time.Duration, error) { return botCPU(w.sdkBot) })
			return
		},
		func() (err error) {
			r.cpuBare, err = medianOf(o.starts, func() (time.Duration, error) { return bareCPU(payload(w.reply)) })
			return
		},
	}
	steps := []func() error{
		func() (err error) { r.j1, err = runMatch(o.arena, "random", o.games, 1, seed); return },
		func() (err error) { r.l1, err = runLadder(o.arena, w.ladder, o.games, 1, seed); return },
		func() (err error) { r.r1, err = runMatchReplays(o.arena, o.games, 1, seed); return },
		func() (err error) { r.bare1, err = bareRoundTrips(w.bare, w.msgs, 1); return },
		func() (err error) { r.bareOneP, err = bareRoundTrips(w.bareOneP, w.msgs, 1); return },
		func() (err error) {
			r.bareInTurn, err = bareInTurn([2]*bareProc{w.bareOneP, w.bareOneP2}, w.msgs, w.seats)
			return
		},
		func() (err error) { r.structured, err = structuredRoundTrips(w.bare, w.reqs); return },
		func() (err error) { r.sdkBare, err = w.sdkBare.rawRoundTrips(w.reqs); return },
		func() (err error) { r.sdk, err = w.plain.rawRoundTrips(w.reqs); return },
		func() (err error) { r.seat, err = w.plain.seatRoundTrips(w.reqs); return },
		func() (err error) { r.boxed, err = w.boxed.seatRoundTrips(w.reqs); return },
		func() (err error) {
			r.twoSeats, err = twoSeatRoundTrips([2]*botLayer{w.boxed, w.boxed2}, w.reqs)
			return
		},
		func() (err error) { r.j2, err = runMatch(o.arena, "random", o.games, 2, seed); return },
		func() (err error) { r.l2, err = runLadder(o.arena, w.ladder, o.games, 2, seed); return },
		func() (err error) { r.r2, err = runMatchReplays(o.arena, o.games, 2, seed); return },
		func() (err error) {
			r.bare2, err = bareRoundTrips(w.bare, w.msgs, 2)
			r.lat2 = 2 * r.bare2
			return
		},
	}
	steps = append(steps, starts...)
	if o.startsOnly {
		steps = starts
	}
	if w.pg != nil {
		// Each right beside its ladder run and its match run (steps 0-1 and 10-11);
		// the later one first, so that the earlier index still holds.
		steps = slices.Insert(steps, 12, func() (err error) { r.w2, err = runWorker(context.Background(), o.arena, w.pg, o.games, 2); return })
		steps = slices.Insert(steps, 2, func() (err error) { r.w1, err = runWorker(context.Background(), o.arena, w.pg, o.games, 1); return })
		steps = append(steps,
			func() (err error) { r.j4, err = runMatch(o.arena, "random", o.games, 4, seed); return },
			func() (err error) { r.w4, err = runWorker(context.Background(), o.arena, w.pg, o.games, 4); return },
			func() (err error) { r.r4, err = runMatchReplays(o.arena, o.games, 4, seed); return })
	}
	if o.fastchess != "" && !o.startsOnly {
		steps = append(steps,
			func() (err error) { r.fc1, err = runFastchess(o.fastchess, fastchessGames, 1, seed); return },
			func() (err error) { r.fc2, err = runFastchess(o.fastchess, fastchessGames, 2, seed); return })
	}
	if o.base != "" && !o.startsOnly {
		steps = append(steps,
			func() (err error) { r.b1, err = runMatch(o.base, "random", o.games, 1, seed); return },
			func() (err error) { r.b2, err = runMatch(o.base, "random", o.games, 2, seed); return },
			func() (err error) { r.bl1, err = runLadder(o.base, w.baseLadder, o.games, 1, seed); return },
			func() (err error) { r.bl2, err = runLadder(o.base, w.baseLadder, o.games, 2, seed); return })
	}
	if o.base != "" {
		steps = append(steps, func() (err error) {
			r.baseFirst, r.baseOneDeal, err = firstDecision(o.base, "random", o.starts, seed)
			return
		})
	}
	return r, runSteps(&r, steps, i)
}

// measureWorkers is a repetition of the worker rows alone (--workers-only): at each
// -j, `arena match` without and with replays and `arena worker`, each right beside
// the others, in an order that alternates between repetitions as measure's does.
func measureWorkers(o options, w *world, i int) (rep, error) {
	r := rep{load: loadAvg()}
	seed := uint64(i + 1)
	var steps []func() error
	for _, j := range []int{1, 2, 4} {
		m, rp, wk := map[int]*matchRun{1: &r.j1, 2: &r.j2, 4: &r.j4}[j], map[int]*matchRun{1: &r.r1, 2: &r.r2, 4: &r.r4}[j], map[int]*workerRun{1: &r.w1, 2: &r.w2, 4: &r.w4}[j]
		steps = append(steps,
			func() (err error) { *m, err = runMatch(o.arena, "random", o.games, j, seed); return },
			func() (err error) { *wk, err = runWorker(context.Background(), o.arena, w.pg, o.games, j); return },
			func() (err error) { *rp, err = runMatchReplays(o.arena, o.games, j, seed); return })
		if o.base != "" {
			bw := map[int]*workerRun{1: &r.bw1, 2: &r.bw2, 4: &r.bw4}[j]
			steps = append(steps, func() (err error) { *bw, err = runWorker(context.Background(), o.base, w.pg, o.games, j); return })
		}
	}
	return r, runSteps(&r, steps, i)
}

// measureChess is a repetition of the fastchess rows alone (--fastchess-only):
// `arena match` and fastchess at -j 1 and 2, each right beside the other.
func measureChess(o options, w *world, i int) (rep, error) {
	r := rep{load: loadAvg()}
	seed := uint64(i + 1)
	return r, runSteps(&r, []func() error{
		func() (err error) { r.j1, err = runMatch(o.arena, "random", o.games, 1, seed); return },
		func() (err error) { r.fc1, err = runFastchess(o.fastchess, fastchessGames, 1, seed); return },
		func() (err error) { r.j2, err = runMatch(o.arena, "random", o.games, 2, seed); return },
		func() (err error) { r.fc2, err = runFastchess(o.fastchess, fastchessGames, 2, seed); return },
		func() (err error) { r.bare1, err = bareRoundTrips(w.bare, w.msgs, 1); return },
		func() (err error) { r.bare2, err = bareRoundTrips(w.bare, w.msgs, 2); return },
	}, i)
}

// measureLadder is a repetition of the ladder rows alone (--ladder-only): at each -j,
// `arena match` without and with replays and `ladder run` (and with --base the base
// arena's ladder run and match), each right beside the others, in an order that
// alternates between repetitions as measure's does.
func measureLadder(o options, w *world, i int) (rep, error) {
	r := rep{load: loadAvg()}
	seed := uint64(i + 1)
	var steps []func() error
	for _, j := range []int{1, 2} {
		m, rp, l := map[int]*matchRun{1: &r.j1, 2: &r.j2}[j], map[int]*matchRun{1: &r.r1, 2: &r.r2}[j], map[int]*ladderRun{1: &r.l1, 2: &r.l2}[j]
		steps = append(steps,
			func() (err error) { *m, err = runMatch(o.arena, "random", o.games, j, seed); return },
			func() (err error) { *l, err = runLadder(o.arena, w.ladder, o.games, j, seed); return },
			func() (err error) { *rp, err = runMatchReplays(o.arena, o.games, j, seed); return })
		if o.base != "" {
			bm, bl := map[int]*matchRun{1: &r.b1, 2: &r.b2}[j], map[int]*ladderRun{1: &r.bl1, 2: &r.bl2}[j]
			steps = append(steps,
				func() (err error) { *bl, err = runLadder(o.base, w.baseLadder, o.games, j, seed); return },
				func() (err error) { *bm, err = runMatch(o.base, "random", o.games, j, seed); return })
		}
	}
	return r, runSteps(&r, steps, i)
}

// runSteps runs a repetition's steps, in reverse on odd repetitions (so that a drift
// of the machine's load over the run favours no side), and notes the load after.
func runSteps(r *rep, steps []func() error, i int) error {
	if i%2 == 1 {
		slices.Reverse(steps)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	r.loadLast = loadAvg()
	return nil
}

// firstDecision is the median over n runs of one deal of the report's start of the
// run to its first answered decision, and of the whole command's wall time (which
// also counts what the arena does before the run: its own start, its flags, finding
// its helper).
func firstDecision(arenaBin, bot string, n int, seed uint64, extra ...string) (first, wall time.Duration, err error) {
	var walls []time.Duration
	first, err = medianOf(n, func() (time.Duration, error) {
		m, err := runMatch(arenaBin, bot, 2, 1, seed, extra...)
		walls = append(walls, m.wall)
		return m.first, err
	})
	if err != nil {
		return 0, 0, err
	}
	slices.Sort(walls)
	return first, walls[len(walls)/2], nil
}

// medianOf is the median of n measurements.
func medianOf(n int, f func() (time.Duration, error)) (time.Duration, error) {
	var v []time.Duration
	for range n {
		d, err := f()
		if err != nil {
			return 0, err
		}
		v = append(v, d)
	}
	slices.Sort(v)
	return v[len(v)/2], nil
}

// loadAvg is the one-minute load average (0 where /proc has none).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return v
}

func minSize(m []*wrapperspb.BytesValue) int {
	return len(slices.MinFunc(m, func(a, b *wrapperspb.BytesValue) int { return len(a.Value) - len(b.Value) }).Value)
}

func maxSize(m []*wrapperspb.BytesValue) int {
	return len(slices.MaxFunc(m, func(a, b *wrapperspb.BytesValue) int { return len(a.Value) - len(b.Value) }).Value)
}
