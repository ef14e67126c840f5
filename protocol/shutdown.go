//go:build linux

package protocol

import (
	"context"
	"time"
)

// Shutdown asks the bot to exit (go-plugin's controller, then its own signal) and
// reports whether it did within grace; past grace its process group is killed, as Kill
// does. It is how a bot's clean exit is checked.
func (p *Process) Shutdown(grace time.Duration) (clean bool) {
	return p.Stop(context.Background(), grace)
}

// Stop is Shutdown cut short when ctx ends: the process group is killed at once.
func (p *Process) Stop(ctx context.Context, grace time.Duration) (clean bool) {
	done := make(chan struct{})
	go func() { p.client.Kill(); close(done) }()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.run.exited:
		clean = true
	case <-t.C:
	case <-ctx.Done():
	}
	p.run.killGroup()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	p.run.killGroup()
	p.waitCleanup()
	return clean
}
