package protocol

import (
	"time"
)

// Shutdown asks the bot to exit (go-plugin's controller, then its own signal) and
// reports whether it did within grace; past grace its process group is killed, as Kill
// does. It is how a bot's clean exit is checked.
func (p *Process) Shutdown(grace time.Duration) (clean bool) {
	done := make(chan struct{})
	go func() { p.client.Kill(); close(done) }()
	select {
	case <-p.run.exited:
		clean = true
	case <-time.After(grace):
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
