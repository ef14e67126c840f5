package arena

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
)

type runner struct {
	cfg     Config
	spec    engine.Spec
	codec   protocol.Codec
	bots    []*botProc
	sandbox SandboxJSON
	// ending counts results still being told to bots: the bots are stopped after.
	ending sync.WaitGroup
}

// Run plays a whole run: it starts every bot, plays every deal in every rotation
// (cfg.Parallel at a time), stops every bot process (and their process groups) and
// sums up. It returns an error, and no report, for a bad configuration (a sandbox level
// the machine lacks included), a bot that crashed or failed to start past the restart
// limit, a disqualified bot (ErrDisqualified), an engine error or a cancelled ctx;
// every bot process is gone when it returns, whatever happened. A bot that does not
// start forfeits its seats (crash, timeout or protocol, as it failed) and is tried again
// for the next match, as a restart.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	spec, err := cfg.check()
	if err != nil {
		return nil, err
	}
	codec, _ := protocol.CodecFor(cfg.Game)
	r := &runner{cfg: cfg, spec: spec, codec: codec}
	if cfg.ReplayDir != "" {
		if err := os.MkdirAll(cfg.ReplayDir, 0o700); err != nil {
			return nil, err
		}
	}
	matches := r.schedule()
	sb := cfg.Sandbox
	// The replays hold every seat's hidden cards: no bot may see them.
	sb.Hide = append(append([]string(nil), sb.Hide...), cfg.ReplayDir)
	if sb.Limits.CPUTime == 0 {
		sb.Limits.CPUTime = defaultCPUTime(len(matches), cfg.Clock)
	}
	layers, err := sb.Layers()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	r.sandbox = sandboxJSON(sb.Level, layers)
	cfg.Logger.Info("sandbox", "level", sb.Level, "active", strings.Join(r.sandbox.Active, ","), "missing", r.sandbox.Missing)
	defer r.stopBots()
	for _, e := range cfg.Entrants {
		e.Launch.Sandbox = sb
		if e.Launch.StartTimeout == 0 {
			e.Launch.StartTimeout = cfg.Clock.Startup
		}
		if e.Launch.Logger == nil && cfg.Logger.IsDebug() {
			e.Launch.Logger = cfg.Logger.Named("go-plugin")
		}
		b := &botProc{entrant: e, maxRestarts: cfg.MaxRestarts, log: cfg.Logger, obs: cfg.Observer}
		r.bots = append(r.bots, b)
		if err := b.start(); err != nil {
			return nil, err
		}
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	todo := make(chan matchSpec)
	done := make(chan *MatchResult)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range todo {
				res, err := r.play(ctx, m)
				if err != nil {
					cancel(err)
					return
				}
				done <- res
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, m := range matches {
			select {
			case todo <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()

	started := time.Now()
	results := make([]*MatchResult, 0, len(matches))
	dq := &disqualifier{share: cfg.MaxForfeitShare, matches: len(matches), forfeits: make([]int, len(r.bots)), bots: r.bots}
	deals := newDealTally(len(cfg.Entrants))
	stopped := false
	for res := range done {
		if stopped {
			continue // draining what was in flight when the run was stopped
		}
		results = append(results, res)
		if err := dq.add(res); err != nil && ctx.Err() == nil {
			cfg.Logger.Warn("bot disqualified", "error", err)
			cancel(err)
		}
		if cfg.OnMatch != nil {
			cfg.OnMatch(res, len(results), len(matches))
		}
		if deals.add(res) && cfg.Stop != nil && cfg.Stop(deals.completed) {
			stopped = true
			cancel(errStopped)
		}
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, errStopped) {
		return nil, err
	}
	if stopped {
		results = deals.only(results)
	} else if len(results) != len(matches) {
		return nil, fmt.Errorf("only %d of %d matches were played", len(results), len(matches))
	}
	rep := r.report(results, time.Since(started))
	rep.Sandbox = r.sandbox
	rep.Stopped = stopped
	return rep, nil
}

// errStopped is the cause of a run that Config.Stop ended.
var errStopped = errors.New("stopped early")

// dealTally follows which deals have all their rotations played.
type dealTally struct {
	n         int
	played    map[int][]*MatchResult
	completed []DealBlock
}

func newDealTally(n int) *dealTally { return &dealTally{n: n, played: map[int][]*MatchResult{}} }

// add counts a finished match and reports whether it completed its deal.
func (d *dealTally) add(m *MatchResult) bool {
	d.played[m.Deal] = append(d.played[m.Deal], m)
	if len(d.played[m.Deal]) < d.n {
		return false
	}
	b := DealBlock{Deal: m.Deal, Seed: m.Seed, Points: make([]float64, d.n)}
	for _, g := range d.played[m.Deal] {
		for _, s := range g.Seats {
			b.Points[s.Entrant] += s.Points / float64(d.n)
		}
	}
	d.completed = append(d.completed, b)
	return true
}

// only keeps the results of completed deals.
func (d *dealTally) only(results []*MatchResult) []*MatchResult {
	var out []*MatchResult
	for _, m := range results {
		if len(d.played[m.Deal]) == d.n {
			out = append(out, m)
		}
	}
	return out
}

// schedule lists the matches: deal d is played in every cyclic rotation of the
// entrants, so that every bot sits in every seat of every deal once. (All permutations
// would also balance who sits after whom, but grow as n!; for two players both agree.)
func (r *runner) schedule() []matchSpec {
	n := len(r.cfg.Entrants)
	deals := (r.cfg.Games + n - 1) / n
	var out []matchSpec
	for d := 0; d < deals; d++ {
		seed := mix(r.cfg.Seed, uint64(d))
		for rot := 0; rot < n; rot++ {
			ent := make([]int, n)
			for s := range ent {
				ent[s] = (s + rot) % n
			}
			out = append(out, matchSpec{id: fmt.Sprintf("d%04d-r%d", d, rot), deal: d, rotation: rot, seed: seed, entrants: ent})
		}
	}
	return out
}

// stopBots ends every bot process and keeps what each wrote to stderr (its last
// bytes) beside the replays.
func (r *runner) stopBots() {
	r.ending.Wait() // each at most protocol.EndMatchTimeout
	var wg sync.WaitGroup
	for i, b := range r.bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.stop(r.cfg.Clock.Shutdown)
			dir := r.cfg.ReplayDir
			if dir == "" {
				dir = r.cfg.StderrDir
			}
			if dir == "" {
				return
			}
			if tail := b.stderr(); tail != "" {
				name := fmt.Sprintf("stderr-%d-%s.log", i, strings.Map(safeRune, b.entrant.Name))
				_ = os.WriteFile(filepath.Join(dir, name), []byte(tail), 0o644)
			}
		}()
	}
	wg.Wait()
}

func safeRune(r rune) rune {
	if r == '/' || r == os.PathSeparator || r < ' ' {
		return '_'
	}
	return r
}
