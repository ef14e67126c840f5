package arena

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/sandbox"
)

type runner struct {
	lat     []*latencies // each entrant's decision times
	cfg     Config
	spec    engine.Spec
	bots    []*botProc
	sandbox SandboxJSON
	// ending counts results still being told to bots: the bots are stopped after.
	ending sync.WaitGroup
	// began is when Run was called; first is how long after it the first decision of
	// the run was answered (0 until then): the run's start-up cost, in the report.
	began time.Time
	first atomic.Int64
}

// Run plays a whole run: it starts every bot (all at once), plays every deal in every
// rotation (cfg.Parallel at a time), stops every bot process (and their process groups)
// and sums up. It returns an error, and no report, for a bad configuration (a sandbox
// level the machine lacks included). A run that stops before its schedule is done (a
// cancelled ctx, a bot that crashed or failed to start past the restart limit, a
// disqualified bot (ErrDisqualified), an engine error) returns that error together
// with a partial report of the deals completed before it. Every bot process is gone
// when it returns, whatever happened, but for those handed back to Config.Pool (which
// keeps only healthy ones of a run that was not cancelled, and stops the others once
// no other run holds them); once ctx ends, nothing
// more is started and the bots are killed without waiting for a polite exit. A bot
// that does not start forfeits its seats (crash, timeout or protocol, as it failed)
// and is tried again for the next match, as a restart.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	began := time.Now()
	spec, err := cfg.check()
	if err != nil {
		return nil, err
	}
	if cfg.Seed == 0 {
		cfg.Seed = NewSeed()
	}
	r := &runner{cfg: cfg, spec: spec, began: began}
	// Replays kept in memory need no folder; the bots' stderr makes it when there is
	// some (stopBots): a ladder's folder per block cost it a directory's inode a block.
	if cfg.ReplayDir != "" && !cfg.ReplaysInMemory {
		if err := os.MkdirAll(cfg.ReplayDir, 0o700); err != nil {
			return nil, err
		}
	}
	sb := cfg.Sandbox
	// The replays hold every seat's hidden cards: no bot may see them.
	sb.Hide = append(append([]string(nil), sb.Hide...), cfg.ReplayDir)
	if sb.Limits.CPUTime == 0 {
		matches := r.cpuMatches()
		if cfg.Pool != nil {
			matches = max(matches, cfg.Pool.cfg.MaxGames) // a kept process plays that many
		}
		sb.Limits.CPUTime = defaultCPUTime(matches, cfg.Clock)
	}
	started := time.Now()
	defer r.stopBots(ctx)
	startErr := r.startBots(ctx, sb)
	layers, err := r.layers(sb)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	r.sandbox = sandboxJSON(sb.Level, layers)
	cfg.Logger.Debug("sandbox", "level", sb.Level, "active", strings.Join(r.sandbox.Active, ","), "missing", r.sandbox.Missing)
	if err := startErr; err != nil {
		return r.partial(newTally(len(cfg.Entrants), r.dealSize(), false), time.Since(started), err), err
	}
	results, stopped, err := r.playAll(ctx)
	rep := r.report(results, time.Since(started))
	rep.Sandbox = r.sandbox
	rep.Stopped = stopped
	if err != nil {
		rep.Partial, rep.StoppedBy = true, err.Error()
	}
	return rep, err
}

// startBots starts every entrant's first process, all at once.
func (r *runner) startBots(ctx context.Context, sb sandbox.Config) error {
	cfg := &r.cfg
	for _, e := range cfg.Entrants {
		e.Launch.Sandbox = sb
		if e.Launch.StartTimeout == 0 {
			e.Launch.StartTimeout = cfg.Clock.Startup
		}
		if e.Launch.Logger == nil && cfg.Logger.IsTrace() {
			e.Launch.Logger = cfg.Logger.Named("go-plugin")
		}
		r.bots = append(r.bots, &botProc{entrant: e, launcher: cfg.Launcher, pool: cfg.Pool, seed: cfg.Seed, tag: cfg.Tag, maxRestarts: cfg.MaxRestarts, log: cfg.Logger, obs: cfg.Observer,
			procs: make([]bot.Process, len(cfg.Entrants))})
	}
	for range r.bots {
		r.lat = append(r.lat, newLatencies())
	}
	errs := make([]error, len(r.bots))
	var wg sync.WaitGroup
	for i, b := range r.bots {
		wg.Go(func() { errs[i] = b.start(ctx, r.firstSeat(i)) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// layers are the sandbox layers of the run's bot processes, for its report: those of
// a bot that started, since every bot's box is made from the same configuration.
// When none started, or with a pool (which finds them once), they come from a trial
// box, made and removed, which fails as every bot's box did for a level the machine
// lacks. (A trial box costs as much as a bot's: made before the bots, it delayed their
// start by 1-10 ms.)
func (r *runner) layers(sb sandbox.Config) ([]sandbox.Status, error) {
	if r.cfg.Pool == nil {
		for _, b := range r.bots {
			if p := b.anyProcess(); p != nil {
				return p.Sandbox(), nil
			}
		}
	}
	return r.cfg.Pool.SandboxLayers(sb)
}

// partial is the report of a run that stopped before it played anything.
func (r *runner) partial(t *tally, elapsed time.Duration, err error) *Report {
	rep := r.report(t, elapsed)
	rep.Sandbox = r.sandbox
	rep.Partial, rep.StoppedBy = true, err.Error()
	return rep
}

// playAll plays the schedule, cfg.Parallel matches at a time, and returns the sums of
// the completed deals; stopped is set when Config.Stop ended the run. After ctx ends or
// a match fails, no match is handed out.
func (r *runner) playAll(parent context.Context) (results *tally, stopped bool, err error) {
	cfg := &r.cfg
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	todo := make(chan matchSpec)
	done := make(chan *MatchResult)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Parallel; w++ {
		wg.Go(func() {
			for m := range todo {
				if ctx.Err() != nil {
					continue // handed out as the run stopped: not played
				}
				res, err := r.play(ctx, m)
				if err != nil {
					cancel(err)
					continue
				}
				done <- res
			}
		})
	}
	total := r.total()
	go func() {
		defer close(todo)
		for i := 0; total == 0 || i < total; i++ {
			m := r.match(i)
			if !r.playsRotation(m.rotation) {
				continue
			}
			if ctx.Err() != nil {
				return
			}
			select {
			case todo <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()

	n := len(cfg.Entrants)
	dq := newDisqualifier(cfg.MaxForfeitShare, r.bots)
	results = newTally(n, r.dealSize(), cfg.KeepMatches)
	played, want := 0, total/n*r.dealSize() // want: the matches to play (0: unbounded)
	for res := range done {
		if ctx.Err() != nil {
			discardReplay(res) // draining what was in flight when the run stopped
			continue
		}
		if err := r.commit(res); err != nil {
			cancel(err) // nothing after a failed commit is kept
			continue
		}
		played++
		if err := dq.add(res); err != nil {
			cfg.Logger.Warn("bot disqualified", "error", err)
			cancel(err)
		}
		if cfg.OnMatch != nil {
			cfg.OnMatch(res, played, want)
		}
		if deal, ok := results.add(res); ok && cfg.Stop != nil && cfg.Stop(deal) {
			stopped = true
			cancel(errStopped)
		}
	}
	switch err := context.Cause(ctx); {
	case err == nil, errors.Is(err, errStopped):
	case parent.Err() != nil:
		return results, stopped, parent.Err()
	default:
		return results, stopped, err
	}
	if !stopped && want > 0 && played != want {
		return results, false, fmt.Errorf("only %d of %d matches were played", played, want)
	}
	return results, stopped, nil
}

// commit hands a finished match to Config.Commit, then moves its replay into place.
func (r *runner) commit(m *MatchResult) error {
	if r.cfg.Commit != nil {
		if err := r.cfg.Commit(m); err != nil {
			return err
		}
	}
	return commitReplay(m)
}

// errStopped is the cause of a run that Config.Stop ended.
var errStopped = errors.New("stopped early")

// The schedule is made as it is played: match i is deal i/n in rotation i%n (n
// entrants), so that every bot sits in every seat of every deal once. (All permutations
// would also balance who sits after whom, but grow as n!; for two players both agree.)
// Config.Rotations leaves some rotations out.

// total is the number of matches the schedule counts through, rotations left out
// included; 0 is unbounded (until Config.Stop decides or ctx ends).
func (r *runner) total() int {
	if r.cfg.Games == 0 {
		return 0
	}
	n := len(r.cfg.Entrants)
	return (r.cfg.Games + n - 1) / n * n
}

// cpuMatches is the matches a bot's CPU limit is sized for: an unbounded run gets a
// million.
func (r *runner) cpuMatches() int {
	if t := r.total(); t > 0 {
		return t
	}
	return 1 << 20
}

// match is the i-th match of the schedule.
func (r *runner) match(i int) matchSpec {
	n := len(r.cfg.Entrants)
	d, rot := i/n, i%n
	ent := make([]int, n)
	for s := range ent {
		ent[s] = (s + rot) % n
	}
	return matchSpec{id: fmt.Sprintf("d%04d-r%d", d, rot), deal: d, rotation: rot, seed: dealSeed(r.cfg.Seed, d), entrants: ent}
}

// firstSeat is the seat entrant e takes in the first rotation the run plays.
func (r *runner) firstSeat(e int) int {
	n, rot := len(r.cfg.Entrants), 0
	for rot < n-1 && !r.playsRotation(rot) {
		rot++
	}
	return (e - rot + n) % n
}

// playsRotation reports whether the run plays rotation rot of its deals
// (Config.Rotations; every rotation when it is empty).
func (r *runner) playsRotation(rot int) bool {
	return len(r.cfg.Rotations) == 0 || slices.Contains(r.cfg.Rotations, rot)
}

// dealSize is the number of matches a deal is played in.
func (r *runner) dealSize() int {
	if len(r.cfg.Rotations) == 0 {
		return len(r.cfg.Entrants)
	}
	n := 0
	for rot := range r.cfg.Entrants {
		if r.playsRotation(rot) {
			n++
		}
	}
	return n
}

// stopBots ends every bot process and keeps what each wrote to stderr (its last
// bytes) beside the replays.
func (r *runner) stopBots(ctx context.Context) {
	r.ending.Wait() // each at most bot.EndMatchTimeout
	var wg sync.WaitGroup
	for i, b := range r.bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.stop(ctx, r.cfg.Clock.Shutdown)
			dir := r.cfg.ReplayDir
			if dir == "" {
				dir = r.cfg.StderrDir
			}
			if dir == "" {
				return
			}
			name := fmt.Sprintf("stderr-%d-%s", i, strings.Map(safeRune, b.entrant.Name))
			if r.cfg.StderrPerSeat {
				for seat, tail := range b.stderrBySeat() {
					keepStderr(dir, fmt.Sprintf("%s-seat-%d.log", name, seat), tail)
				}
				return
			}
			if tail := b.stderr(); tail != "" {
				keepStderr(dir, name+".log", tail)
			}
		}()
	}
	wg.Wait()
}

// keepStderr writes a bot's stderr to dir/name, making dir if it is not there yet
// (Config.ReplaysInMemory makes none beforehand).
func keepStderr(dir, name, tail string) {
	if os.MkdirAll(dir, 0o700) == nil {
		_ = os.WriteFile(filepath.Join(dir, name), []byte(tail), 0o644)
	}
}

func safeRune(r rune) rune {
	if r == '/' || r == os.PathSeparator || r < ' ' {
		return '_'
	}
	return r
}
