package arena

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Pool keeps bot processes between runs, as a ladder plays one short run per block:
// a new match is a new StartMatch, not a new process. A run with Config.Pool takes the
// process of an entrant's seat from the pool (Entrant.Keep names the program) and
// hands it back when the run ends, instead of stopping it. With PoolConfig.Share
// above 1, one process serves that many runs at once, as `arena match -j` has one
// process play several matches at once: a ladder playing two blocks at once then runs
// two processes per bot, not four.
//
// What a kept process could carry from one run into the next is what fair play is
// about, and the pool holds the same line as a run does within itself:
//   - a process plays one seat: processes are kept per seat, so that one never meets a
//     deal in one seat and then again in another, where the hand it held is an
//     opponent's;
//   - a process is never handed to a run with a seed it has played under (the same
//     seed deals the same cards): each run of a ladder deals from fresh entropy, and
//     this makes sure of it;
//   - runs side by side share a process only when each has a Config.Tag of its own,
//     which the match ids its bots are told carry (the SDKs key a match by its id);
//     what the process learns in one is its own view of another deal, as in a match
//     run with -j.
//
// A process goes (is stopped, or dropped if it died) when it crashed, when its seat
// forfeited (a timeout, an illegal answer or a broken protocol leave it in a state no
// later match should inherit), when it played MaxGames matches, when a newer version
// of its bot is asked for, when it was idle for IdleTime, when a run that holds it is
// cancelled, and when the pool is closed; a process that serves other runs too goes
// when the last of them hands it back. Its scratch directory lives as long as it does:
// a bot may keep files there between matches as it keeps memory.
type Pool struct {
	cfg PoolConfig

	mu     sync.Mutex
	procs  map[poolSlot][]*kept // idle and lent
	closed bool
	// stopping counts the processes being stopped beside the runs (Close waits).
	stopping sync.WaitGroup
	// layers are the sandbox's layers on this machine, by level and helper: every run
	// with the pool reports them, and finding them prepares a whole sandbox.
	layers map[string][]sandbox.Status
	// starts holds a slot while a run starts a process for it (starting).
	starts map[poolSlot]chan struct{}
}

// PoolConfig bounds what a pool keeps.
type PoolConfig struct {
	// MaxGames is how many matches one process plays before it is stopped and a fresh
	// one started (default DefaultPoolGames; a process shared by runs at once may play
	// one more for each run beside the first). The sandbox's CPU limit of a run with a
	// pool covers this many matches.
	MaxGames int
	// IdleTime stops a process nobody asked for in that long (default 5 minutes): a
	// retired bot's processes go.
	IdleTime time.Duration
	// Share is how many runs one process serves at once (default 1); only runs with
	// a Config.Tag each share.
	Share int
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

// poolSlot is where kept processes wait: one program in one seat.
type poolSlot struct {
	keep Keep
	seat int
}

// kept is one process the pool knows; the pool's mu guards all but p.
type kept struct {
	p     bot.Process
	slot  poolSlot
	games int
	seeds map[uint64]bool // the run seeds it played under
	idle  time.Time       // when the last run handed it back
	// leases are the runs that hold it now; done says it takes no more (its seat
	// forfeited, or a run holding it was cancelled) and stops with the last.
	leases []*lease
	done   bool
	// shared marks where in its stderr the number of runs holding it changed.
	shared []shareMark
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
	if cfg.Share <= 0 {
		cfg.Share = 1
	}
	return &Pool{cfg: cfg, procs: map[poolSlot][]*kept{}, layers: map[string][]sandbox.Status{}, starts: map[poolSlot]chan struct{}{}}
}

// starting waits until no other run is starting a process for slot, then holds the
// slot until done is called. Runs that begin side by side (a worker's slots as it
// starts) would otherwise each start a process for a slot while the first run's was
// still starting, where one process can serve them all (Share): a worker of two
// 2-player bots ran 4-6 bot processes at -j 2 and 10 at -j 4 where 4 serve it, each a
// sandboxed start on the cores its first games need. A run that cannot share the
// process started meanwhile starts its own after it; one whose ctx ends stops waiting.
func (p *Pool) starting(ctx context.Context, slot poolSlot) (done func(), err error) {
	for {
		p.mu.Lock()
		held, busy := p.starts[slot]
		if !busy {
			mine := make(chan struct{})
			p.starts[slot] = mine
			p.mu.Unlock()
			return func() {
				p.mu.Lock()
				delete(p.starts, slot)
				p.mu.Unlock()
				close(mine)
			}, nil
		}
		p.mu.Unlock()
		select {
		case <-held:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// SandboxLayers is sb.Layers(), found once per level and helper when p is set: they
// depend on the machine, not on a run. A process that reports them before its first
// run (a worker registering) finds them here, so that the run makes no trial box.
func (p *Pool) SandboxLayers(sb sandbox.Config) ([]sandbox.Status, error) {
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

// lend hands a run (of seed, with tag) a kept process of slot: an idle one, or one
// that serves fewer than Share runs, all with tags of their own, none of them tag;
// nil when there is none. Idle processes past their time or of another version are
// stopped on the way.
func (p *Pool) lend(slot poolSlot, seed uint64, tag string) *lease {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sweep(slot.keep)
	var best *kept
	for _, k := range p.procs[slot] {
		// The busiest that will do: runs side by side share processes.
		if p.lends(k, seed, tag) && (best == nil || len(k.leases) > len(best.leases)) {
			best = k
		}
	}
	if best == nil {
		return nil
	}
	return p.leaseLocked(best, seed, tag, false)
}

// lends reports whether k may serve a run of seed with tag besides its present ones.
func (p *Pool) lends(k *kept, seed uint64, tag string) bool {
	if k.done || k.seeds[seed] || k.p.Exited() || len(k.leases) >= p.cfg.Share ||
		k.games+len(k.leases) >= p.cfg.MaxGames {
		return false
	}
	for _, l := range k.leases {
		if tag == "" || l.tag == "" || l.tag == tag {
			return false
		}
	}
	return true
}

// adopt keeps a process a run just started for slot, and lends it to that run.
func (p *Pool) adopt(proc bot.Process, slot poolSlot, seed uint64, tag string, stopped func()) *lease {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := &kept{p: proc, slot: slot, seeds: map[uint64]bool{}, stopped: stopped}
	p.procs[slot] = append(p.procs[slot], k)
	return p.leaseLocked(k, seed, tag, true)
}

// sweep stops the idle processes of another version of keep's bot, those idle past
// IdleTime and those that died; the caller holds mu.
func (p *Pool) sweep(keep Keep) {
	var drop []*kept
	now := time.Now()
	for s, list := range p.procs {
		stay := list[:0]
		for _, k := range list {
			old := s.keep.Bot == keep.Bot && s.keep.Version != keep.Version
			if len(k.leases) == 0 && (old || now.Sub(k.idle) > p.cfg.IdleTime || k.p.Exited()) {
				drop = append(drop, k)
				continue
			}
			stay = append(stay, k)
		}
		p.procs[s] = stay
		if len(stay) == 0 {
			delete(p.procs, s)
		}
	}
	if len(drop) > 0 {
		// Killed beside the run, which need not wait: Close does.
		p.stopping.Go(func() { stopAll(context.Background(), drop, 0) })
	}
}

// give takes back the process a run is done with (the run's ctx ended: cancelled),
// and returns what it wrote during the run. A process that must go is stopped once no
// other run holds it.
func (p *Pool) give(ctx context.Context, l *lease, spoiled bool, grace time.Duration) string {
	k := l.k
	p.mu.Lock()
	stderr := k.attributed(l.mark)
	k.leases = slices.DeleteFunc(k.leases, func(o *lease) bool { return o == l })
	k.done = k.done || spoiled || ctx.Err() != nil
	k.markShare()
	stop := len(k.leases) == 0 && (k.done || p.closed || k.games >= p.cfg.MaxGames || k.p.Exited())
	if stop {
		p.procs[k.slot] = slices.DeleteFunc(p.procs[k.slot], func(o *kept) bool { return o == k })
	} else if len(k.leases) == 0 {
		k.idle = time.Now()
	}
	p.mu.Unlock()
	if stop {
		k.stop(ctx, grace)
	}
	return stderr
}

// Close stops every idle process (a polite exit for at most grace each, all at once,
// cut short when ctx ends); processes still in a run are stopped when the last run
// holding them ends.
func (p *Pool) Close(ctx context.Context, grace time.Duration) {
	p.mu.Lock()
	p.closed = true
	var idle []*kept
	for s, list := range p.procs {
		for _, k := range list {
			if len(k.leases) == 0 {
				idle = append(idle, k)
			}
		}
		p.procs[s] = slices.DeleteFunc(list, func(k *kept) bool { return len(k.leases) == 0 })
	}
	p.mu.Unlock()
	stopAll(ctx, idle, grace)
	p.stopping.Wait()
}

// Idle is the number of processes waiting in the pool, no run holding them.
func (p *Pool) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, list := range p.procs {
		for _, k := range list {
			if len(k.leases) == 0 {
				n++
			}
		}
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
	tag  string
	mark int64 // the stderr written before the run took it

	mu       sync.Mutex
	spoiled  bool
	returned bool
	stderr   string // what it wrote during the run, once returned
}

// leaseLocked lends k to a run; what a process that just started wrote is its run's.
// The caller holds mu.
func (p *Pool) leaseLocked(k *kept, seed uint64, tag string, fresh bool) *lease {
	l := &lease{Process: k.p, pool: p, k: k, tag: tag}
	if !fresh {
		_, l.mark = k.p.StderrSince(math.MaxInt64) // the mark alone, no copy
	}
	k.seeds[seed] = true
	k.leases = append(k.leases, l)
	k.markShare()
	return l
}

func (l *lease) StartMatch(ctx context.Context, m bot.Start, timeout time.Duration) (bot.Seat, error) {
	l.pool.mu.Lock()
	l.k.games++
	l.pool.mu.Unlock()
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
	l.pool.mu.Lock()
	defer l.pool.mu.Unlock()
	return l.k.attributed(l.mark)
}

func (l *lease) StderrSince(mark int64) (string, int64) {
	return l.Process.StderrSince(max(mark, l.mark))
}

// Stop hands the process back to the pool, which keeps it or stops it.
func (l *lease) Stop(ctx context.Context, grace time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.returned {
		l.stderr = l.pool.give(ctx, l, l.spoiled, grace)
		l.returned = true
	}
	return true
}
