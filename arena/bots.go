package arena

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/protocol/bot"
)

// botProc is one entrant's processes: one per seat, each started once per run (the
// first when the run starts, the others when first needed) and shared by every match
// the entrant plays in that seat. A crashed process is replaced for later matches, up
// to a limit counted over all of them.
//
// One process per seat, not one for the run: every deal is played in every rotation,
// so a process that played a deal in one seat would know, in another seat of the same
// deal, the hand it held before, now an opponent's. A process keeps one seat, and so
// meets each deal once.
type botProc struct {
	entrant     Entrant
	launcher    bot.Launcher
	pool        *Pool  // keeps the processes between runs (nil: none)
	seed        uint64 // the run's
	tag         string // the run's (Config.Tag)
	maxRestarts int
	log         hclog.Logger
	obs         Observer

	mu       sync.Mutex
	procs    []bot.Process // by seat
	restarts int
	failed   error
	// startErr is the last launch that failed: the bot's fault, typed for its seats.
	startErr *bot.StartError
	dead     []deadProc // crashed and stopped processes, for their stderr
}

// deadProc is a process that ended, with the seat it played.
type deadProc struct {
	seat int
	p    bot.Process
}

// ErrRestartLimit is returned when a bot crashed more often than the run allows.
type ErrRestartLimit struct {
	Bot      string
	Restarts int
	Stderr   string
	// Start is set when the last try failed to start at all.
	Start *bot.StartError
}

func (e *ErrRestartLimit) Error() string {
	if e.Start != nil {
		return fmt.Sprintf("bot %s does not start (%d restarts tried); stopping the run: %v", e.Bot, e.Restarts, e.Start)
	}
	msg := fmt.Sprintf("bot %s crashed again after %d restarts; stopping the run", e.Bot, e.Restarts)
	if s := lastLine(e.Stderr); s != "" {
		msg += fmt.Sprintf(" (its stderr ends: %q)", s)
	}
	return msg
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[len(s)-200:]
	}
	return s
}

// start launches the process of one seat at the start of the run. A process that fails
// to start is not an error of the run: its seats forfeit (see get). A cancelled ctx
// abandons the start.
func (b *botProc) start(ctx context.Context, seat int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, fresh, err := b.launch(ctx, seat)
	if errors.As(err, &b.startErr) {
		b.log.Warn("bot did not start", "bot", b.entrant.Name, "error", err)
		return nil
	}
	if err != nil {
		return err
	}
	b.log.Debug("bot started", "bot", b.entrant.Name, "seat", seat, "pid", p.Pid(), "kept", !fresh)
	b.procs[seat] = p
	if fresh {
		b.obs.BotStarted(b.entrant.Name, false)
	}
	return nil
}

// anyProcess is one of the bot's live processes, nil when none is.
func (b *botProc) anyProcess() bot.Process {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.procs {
		if p != nil {
			return p
		}
	}
	return nil
}

// launch starts the process of seat, or takes one the pool kept from an earlier run;
// fresh says it started.
func (b *botProc) launch(ctx context.Context, seat int) (p bot.Process, fresh bool, err error) {
	if b.pool == nil || b.entrant.Keep == (Keep{}) {
		p, err := b.launcher.Launch(ctx, b.entrant.Launch)
		return p, true, err
	}
	slot := poolSlot{b.entrant.Keep, seat}
	if l := b.pool.lend(slot, b.seed, b.tag); l != nil {
		return l, false, nil
	}
	done, err := b.pool.starting(ctx, slot)
	if err != nil {
		return nil, true, err
	}
	defer done()
	// Another run may have started one while this one waited.
	if l := b.pool.lend(slot, b.seed, b.tag); l != nil {
		return l, false, nil
	}
	p, err = b.launcher.Launch(ctx, b.entrant.Launch)
	if err != nil {
		return nil, true, err
	}
	name, obs := b.entrant.Name, b.obs
	return b.pool.adopt(p, slot, b.seed, b.tag, func() { obs.BotStopped(name) }), true, nil
}

// get returns the live process of a seat, starting it if it never ran and restarting it
// if it crashed; after ctx ended, nothing is started.
func (b *botProc) get(ctx context.Context, seat int) (bot.Process, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed != nil {
		return nil, b.failed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	old := b.procs[seat]
	if old != nil && !old.Exited() {
		return old, nil
	}
	restart := old != nil || b.startErr != nil
	if restart {
		b.procs[seat] = nil // kept in dead from here on, not stopped again
		if err := b.countRestart(seat, old); err != nil {
			return nil, err
		}
	}
	p, fresh, err := b.launch(ctx, seat)
	if ctx.Err() != nil {
		if err == nil {
			b.procs[seat] = p // stopped with the others
			if fresh {
				b.obs.BotStarted(b.entrant.Name, restart)
			}
		}
		return nil, ctx.Err()
	}
	var se *bot.StartError
	if errors.As(err, &se) {
		b.startErr = se
		return nil, se
	}
	if err != nil {
		return nil, fmt.Errorf("starting bot %s: %w", b.entrant.Name, err)
	}
	b.startErr = nil
	b.procs[seat] = p
	if fresh {
		b.obs.BotStarted(b.entrant.Name, restart)
	}
	return p, nil
}

// countRestart counts one more restart, after the process old of seat exited (nil:
// after a start that failed), or fails the entrant for good past the limit.
func (b *botProc) countRestart(seat int, old bot.Process) error {
	if old != nil {
		b.dead = append(b.dead, deadProc{seat, old})
		b.obs.BotStopped(b.entrant.Name)
	}
	if b.restarts >= b.maxRestarts {
		limit := &ErrRestartLimit{Bot: b.entrant.Name, Restarts: b.restarts, Start: b.startErr}
		if old != nil {
			limit.Start, limit.Stderr = nil, old.Stderr()
		}
		b.failed = limit
		return b.failed
	}
	if old != nil {
		b.log.Warn("bot process exited; restarting it", "bot", b.entrant.Name, "stderr", bot.Printable(lastLine(old.Stderr())))
	}
	b.restarts++
	return nil
}

// stop ends the live processes: a polite shutdown for at most grace each, at once, cut
// short when ctx ends. (A crashed process's group was killed when it died, while its
// leader was not yet reaped; it is never signalled again, since its ID may be reused
// by then.)
func (b *botProc) stop(ctx context.Context, grace time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var wg sync.WaitGroup
	for seat, p := range b.procs {
		if p == nil {
			continue
		}
		wg.Go(func() { p.Stop(ctx, grace) })
		// Kept in dead so that its stderr is still saved beside the replays.
		b.dead = append(b.dead, deadProc{seat, p})
		b.procs[seat] = nil
		if _, ok := p.(*lease); !ok {
			b.obs.BotStopped(b.entrant.Name) // a pool reports its own
		}
	}
	wg.Wait()
}

// Restarts is how often the process was restarted.
func (b *botProc) restartCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.restarts
}

// keptStderr bounds what is kept of an entrant's stderr, all its processes together
// (each process's own is capped at as much by its launch).
const keptStderr = 64 << 10

// stderr is the last bytes of what the entrant's processes wrote to stderr, one after
// the other.
func (b *botProc) stderr() string {
	return joinStderr(b.stderrOf(-1))
}

// stderrBySeat is stderr per seat: what the processes that played each seat wrote.
func (b *botProc) stderrBySeat() map[int]string {
	out := map[int]string{}
	for seat := range b.seats() {
		if s := joinStderr(b.stderrOf(seat)); s != "" {
			out[seat] = s
		}
	}
	return out
}

func (b *botProc) seats() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.procs)
}

// stderrOf lists what each process of seat (-1: of every seat) wrote, ended ones
// first, in the order they ended.
func (b *botProc) stderrOf(seat int) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	all := slices.Clone(b.dead)
	for s, p := range b.procs {
		all = append(all, deadProc{s, p})
	}
	var parts []string
	for _, d := range all {
		if d.p != nil && (seat < 0 || d.seat == seat) && d.p.Stderr() != "" {
			parts = append(parts, d.p.Stderr())
		}
	}
	return parts
}

func joinStderr(parts []string) string {
	all := strings.Join(parts, "\n--- another process ---\n")
	if len(all) > keptStderr {
		all = all[len(all)-keptStderr:]
	}
	return all
}
