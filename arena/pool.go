package arena

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Pool keeps bot processes between runs, as a ladder plays one short run per block:
// a new match is a new StartMatch, not a new process. A run with Config.Pool takes the
// process of an entrant's seat from the pool when one is idle (Entrant.Keep names the
// program) and hands it back when the run ends, instead of stopping it.
//
// What a kept process could carry from one run into the next is what fair play is
// about, and the pool holds the same line as a run does within itself:
//   - a process plays one seat: processes are kept per seat, so that one never meets a
//     deal in one seat and then again in another, where the hand it held is an
//     opponent's;
//   - a process is never handed to a run with a seed it has played under (the same
//     seed deals the same cards): each run of a ladder deals from fresh entropy, and
//     this makes sure of it;
//   - a process is used by one run at a time (exclusive checkout), so runs side by
//     side never share one.
//
// A process goes (is stopped, or dropped if it died) when it crashed, when its seat
// forfeited (a timeout, an illegal answer or a broken protocol leave it in a state no
// later match should inherit), when it played MaxGames matches, when a newer version
// of its bot is asked for, when it was idle for IdleTime, when the run that holds it
// is cancelled, and when the pool is closed. Its scratch directory lives as long as
// it does: a bot may keep files there between matches as it keeps memory.
type Pool struct {
	cfg PoolConfig

	mu     sync.Mutex
	idle   map[poolSlot][]*kept
	closed bool
	// stopping counts the processes being stopped beside the runs (Close waits).
	stopping sync.WaitGroup
	// layers are the sandbox's layers on this machine, by level and helper: every run
	// with the pool reports them, and finding them prepares a whole sandbox.
	layers map[string][]sandbox.Status
}

// PoolConfig bounds what a pool keeps.
type PoolConfig struct {
	// MaxGames is how many matches one process plays before it is stopped and a fresh
	// one started (default DefaultPoolGames). The sandbox's CPU limit of a run with a
	// pool covers this many matches.
	MaxGames int
	// IdleTime stops a process nobody asked for in that long (default 5 minutes): a
	// retired bot's processes go.
	IdleTime time.Duration
}

// DefaultPoolGames is PoolConfig.MaxGames's default: a process's leaks and its CPU
// limit stay those of a long match run, and its restart costs a few milliseconds in a
// thousand games.
const DefaultPoolGames = 1000

// Keep names an entrant's program for a Pool: processes started for one Bot and
// Version (any number that changes with the program: a ladder's bot ID) are kept for
// later runs of the same; asking for another Version of the same Bot stops the idle
// processes of the others.
type Keep struct {
	Bot     string
	Version int64
}

// poolSlot is where idle processes wait: one program in one seat.
type poolSlot struct {
	keep Keep
	seat int
}

// kept is one process the pool knows.
type kept struct {
	p     bot.Process
	slot  poolSlot
	games int
	seeds map[uint64]bool // the run seeds it played under
	idle  time.Time       // when it was handed back
	// stopped reports the process's end to the observer of the run that started it.
	stopped func()
}

// NewPool makes an empty pool.
func NewPool(cfg PoolConfig) *Pool {
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = DefaultPoolGames
	}
	if cfg.IdleTime <= 0 {
		cfg.IdleTime = 5 * time.Minute
	}
	return &Pool{cfg: cfg, idle: map[poolSlot][]*kept{}, layers: map[string][]sandbox.Status{}}
}

// sandboxLayers is sb.Layers(), found once per level and helper when p is set: they
// depend on the machine, not on a run.
func (p *Pool) sandboxLayers(sb sandbox.Config) ([]sandbox.Status, error) {
	if p == nil {
		return sb.Layers()
	}
	key := fmt.Sprint(sb.Level, sb.Helper)
	p.mu.Lock()
	layers, ok := p.layers[key]
	p.mu.Unlock()
	if ok {
		return layers, nil
	}
	layers, err := sb.Layers()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.layers[key] = layers
	p.mu.Unlock()
	return layers, nil
}

// take hands out an idle process of slot that never played under seed, after
// stopping those past their time or of another version; nil when there is none.
func (p *Pool) take(slot poolSlot, seed uint64) *kept {
	p.mu.Lock()
	var drop []*kept
	now := time.Now()
	for s, list := range p.idle {
		keep := list[:0]
		for _, k := range list {
			old := s.keep.Bot == slot.keep.Bot && s.keep.Version != slot.keep.Version
			if old || now.Sub(k.idle) > p.cfg.IdleTime || k.p.Exited() {
				drop = append(drop, k)
				continue
			}
			keep = append(keep, k)
		}
		p.idle[s] = keep
		if len(keep) == 0 {
			delete(p.idle, s)
		}
	}
	var out *kept
	list := p.idle[slot]
	for i, k := range list {
		if !k.seeds[seed] {
			out = k
			p.idle[slot] = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(drop) > 0 {
		// Killed beside the run, which need not wait: Close does.
		p.stopping.Go(func() { stopAll(context.Background(), drop, 0) })
	}
	p.mu.Unlock()
	if out != nil {
		out.seeds[seed] = true
	}
	return out
}

// give takes back a process a run is done with; one that must go is stopped.
func (p *Pool) give(ctx context.Context, k *kept, spoiled bool, grace time.Duration) {
	p.mu.Lock()
	keep := !p.closed && !spoiled && ctx.Err() == nil && k.games < p.cfg.MaxGames && !k.p.Exited()
	if keep {
		k.idle = time.Now()
		p.idle[k.slot] = append(p.idle[k.slot], k)
	}
	p.mu.Unlock()
	if !keep {
		k.stop(ctx, grace)
	}
}

// Close stops every idle process (a polite exit for at most grace each, all at once,
// cut short when ctx ends); processes still in a run are stopped when it ends.
func (p *Pool) Close(ctx context.Context, grace time.Duration) {
	p.mu.Lock()
	p.closed = true
	var all []*kept
	for _, list := range p.idle {
		all = append(all, list...)
	}
	p.idle = map[poolSlot][]*kept{}
	p.mu.Unlock()
	stopAll(ctx, all, grace)
	p.stopping.Wait()
}

// Idle is the number of processes waiting in the pool.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, list := range p.idle {
		n += len(list)
	}
	return n
}

func stopAll(ctx context.Context, ks []*kept, grace time.Duration) {
	var wg sync.WaitGroup
	for _, k := range ks {
		wg.Go(func() { k.stop(ctx, grace) })
	}
	wg.Wait()
}

func (k *kept) stop(ctx context.Context, grace time.Duration) {
	if grace <= 0 {
		grace = time.Nanosecond // no wait: killed at once
	}
	k.p.Stop(ctx, grace)
	k.stopped()
}

// lease is a kept process as one run holds it: its stderr is what the process wrote
// during the run, its matches are counted, and stopping it hands it back to the pool.
type lease struct {
	bot.Process
	pool *Pool
	k    *kept
	mark int64 // the stderr written before the run took it

	mu       sync.Mutex
	spoiled  bool
	returned bool
	stderr   string // what it wrote during the run, once returned
}

// lease hands k to a run; what a process that just started wrote is its run's.
func (p *Pool) lease(k *kept, fresh bool) *lease {
	l := &lease{Process: k.p, pool: p, k: k}
	if !fresh {
		_, l.mark = k.p.StderrSince(math.MaxInt64) // the mark alone, no copy
	}
	return l
}

func (l *lease) StartMatch(ctx context.Context, m bot.Start, timeout time.Duration) (bot.Seat, error) {
	l.mu.Lock()
	l.k.games++
	l.mu.Unlock()
	return l.Process.StartMatch(ctx, m, timeout)
}

// spoil keeps the process from being handed to another run (its seat forfeited).
func (l *lease) spoil() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.spoiled = true
}

func (l *lease) Stderr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.returned {
		return l.stderr
	}
	s, _ := l.Process.StderrSince(l.mark)
	return s
}

func (l *lease) StderrSince(mark int64) (string, int64) {
	return l.Process.StderrSince(max(mark, l.mark))
}

// Stop hands the process back to the pool, which keeps it or stops it.
func (l *lease) Stop(ctx context.Context, grace time.Duration) bool {
	l.mu.Lock()
	if l.returned {
		l.mu.Unlock()
		return true
	}
	l.stderr, _ = l.Process.StderrSince(l.mark)
	l.returned = true
	spoiled := l.spoiled
	l.mu.Unlock()
	l.pool.give(ctx, l.k, spoiled, grace)
	return true
}
