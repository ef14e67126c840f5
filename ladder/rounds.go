package ladder

import (
	"context"
	"errors"
)

// Rounds plays a ladder round after round, as `ladder serve` does (a round ends when
// the bots change, and the next one takes the change). The first round reads the
// ladder as Run does, the whole history included; every later one only catches up
// with what changed since (the games recorded by others and the bots and
// suspensions), so that starting a round costs what happened since the last, not the
// ladder's age.
type Rounds struct {
	cfg RunConfig
	r   *runner
}

// NewRounds plays the ladder of cfg (its Until is each round's).
func NewRounds(cfg RunConfig) *Rounds { return &Rounds{cfg: cfg} }

// Run plays one round until until is closed, the limits of the configuration are
// reached or ctx is cancelled, as Run does. The tables keep being drawn from one
// random stream, so a round never repeats the last one's.
func (x *Rounds) Run(ctx context.Context, until <-chan struct{}) (RunSummary, error) {
	if x.cfg.Player == nil {
		return RunSummary{}, errors.New("a ladder run needs a player")
	}
	if err := x.catchUp(ctx); err != nil {
		return RunSummary{}, err
	}
	r := x.r
	r.mu.Lock()
	r.cfg.Until, r.summary, r.firstErr = until, RunSummary{}, nil
	r.mu.Unlock()
	return r.run(ctx)
}

// catchUp reads the ladder for the first round, and what changed since the last
// round for every other: the games this runner recorded itself were learned as they
// were recorded and are skipped.
func (x *Rounds) catchUp(ctx context.Context) error {
	if x.r == nil {
		r, err := newRun(ctx, x.cfg)
		if r != nil {
			r.own = map[int64]bool{}
			x.r = r
		}
		return err
	}
	return (&Scheduler{x.r}).Update(ctx, nil)
}
