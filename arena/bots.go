package arena

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/protocol"
)

// botProc is one entrant's process, started once per run and shared by every match the
// entrant plays; a crashed process is replaced for later matches, up to a limit.
type botProc struct {
	entrant     Entrant
	maxRestarts int
	log         hclog.Logger
	obs         Observer

	mu       sync.Mutex
	proc     *protocol.Process
	restarts int
	failed   error
	// startErr is the last launch that failed: the bot's fault, typed for its seats.
	startErr *protocol.StartError
	dead     []*protocol.Process // crashed processes, killed again at the end for their children
}

// ErrRestartLimit is returned when a bot crashed more often than the run allows.
type ErrRestartLimit struct {
	Bot      string
	Restarts int
	Stderr   string
	// Start is set when the last try failed to start at all.
	Start *protocol.StartError
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

// start launches the first process. A process that fails to start is not an error of
// the run: its seats forfeit (see get). A cancelled ctx abandons the start.
func (b *botProc) start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, err := protocol.Launch(ctx, b.entrant.Launch)
	if errors.As(err, &b.startErr) {
		b.log.Warn("bot did not start", "bot", b.entrant.Name, "error", err)
		return nil
	}
	if err != nil {
		return err
	}
	b.log.Debug("bot started", "bot", b.entrant.Name, "pid", p.Pid())
	b.proc = p
	b.obs.BotStarted(b.entrant.Name, false)
	return nil
}

// get returns a live process, restarting a crashed one; after ctx ended, nothing is
// restarted.
func (b *botProc) get(ctx context.Context) (*protocol.Process, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failed != nil {
		return nil, b.failed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b.proc != nil && !b.proc.Exited() {
		return b.proc, nil
	}
	if b.proc != nil {
		b.dead = append(b.dead, b.proc)
		stderr := b.proc.Stderr()
		b.proc = nil
		b.obs.BotStopped(b.entrant.Name)
		if b.restarts >= b.maxRestarts {
			b.failed = &ErrRestartLimit{Bot: b.entrant.Name, Restarts: b.restarts, Stderr: stderr}
			return nil, b.failed
		}
		b.log.Warn("bot process exited; restarting it", "bot", b.entrant.Name, "stderr", protocol.Printable(lastLine(stderr)))
		b.restarts++
	} else if b.startErr != nil {
		if b.restarts >= b.maxRestarts {
			b.failed = &ErrRestartLimit{Bot: b.entrant.Name, Restarts: b.restarts, Start: b.startErr}
			return nil, b.failed
		}
		b.restarts++
	}
	p, err := protocol.Launch(ctx, b.entrant.Launch)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var se *protocol.StartError
	if errors.As(err, &se) {
		b.startErr = se
		return nil, se
	}
	if err != nil {
		return nil, fmt.Errorf("restarting bot %s: %w", b.entrant.Name, err)
	}
	b.startErr = nil
	b.proc = p
	b.obs.BotStarted(b.entrant.Name, true)
	return p, nil
}

// stop ends the live process: a polite shutdown for at most grace, cut short when ctx
// ends. (A crashed process's group was killed when it died, while its leader was not
// yet reaped; it is never signalled again, since its ID may be reused by then.)
func (b *botProc) stop(ctx context.Context, grace time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.proc != nil {
		b.proc.Stop(ctx, grace)
		// Kept in dead so that its stderr is still saved beside the replays.
		b.dead = append(b.dead, b.proc)
		b.proc = nil
		b.obs.BotStopped(b.entrant.Name)
	}
}

// Restarts is how often the process was restarted.
func (b *botProc) restartCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.restarts
}

// stderr is what the entrant's processes wrote to stderr, the last bytes of each.
func (b *botProc) stderr() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var parts []string
	for _, p := range append(append([]*protocol.Process(nil), b.dead...), b.proc) {
		if p != nil && p.Stderr() != "" {
			parts = append(parts, p.Stderr())
		}
	}
	return strings.Join(parts, "\n--- restarted ---\n")
}
