package ladder

import (
	"context"
	"errors"
	"maps"

	"github.com/arena-games/arena/ladder/store"
)

// Update catches the scheduler up with the ladder, as a new scheduler would see it but
// at the cost of what changed: the games recorded since it last read (into the live
// ratings, the games per bot and the forfeit shares, suspending the bots they take
// past their share), the bots and suspensions as they are now (a version reinstated
// since has its share counted afresh from the games after its reinstatement, a read
// of those games alone), and open, the blocks still missing games, counted as under
// way. Its error wraps ErrTooFewBots when no table can be seated.
func (s *Scheduler) Update(ctx context.Context, open []store.Block) error {
	r := s.r
	all, err := r.cfg.Store.Bots(ctx, true)
	if err != nil {
		return err
	}
	sus, err := r.cfg.Store.Suspensions(ctx)
	if err != nil {
		return err
	}
	// The bots are read first: a game names only bots the scheduler already knew, as
	// only it makes blocks. The games a failed read handed out are learned all the
	// same: the cursor has moved past them.
	seen := r.cursor.Last()
	var games []store.Match
	readErr := r.cursor.Next(ctx, func(m store.Match) error { games = append(games, m); return nil })
	r.mu.Lock()
	defer r.mu.Unlock()
	recountErr := r.reinstated(ctx, sus, seen)
	r.setBots(all)
	for _, m := range games {
		if r.own[m.ID] {
			delete(r.own, m.ID)
			continue
		}
		r.learn(m)
	}
	if err := errors.Join(readErr, recountErr, r.setPlayers()); err != nil {
		return err
	}
	r.games, r.planned = maps.Clone(r.recorded), 0
	for _, b := range open {
		if r.playable(b) {
			r.planLocked(b)
		}
	}
	if err := r.suspendLate(ctx); err != nil {
		return err
	}
	return r.enoughBots()
}

// reinstated takes the suspensions as they are now. A bot whose count starts after
// another game than the runner knew was reinstated since: its share is counted afresh
// from the games after that one that the runner had learned (those up to seen), read
// again for it alone. The caller holds mu.
func (r *runner) reinstated(ctx context.Context, sus []store.Suspension, seen int64) error {
	stop := errors.New("caught up")
	for _, x := range sus {
		r.forfeits.suspended[x.Bot] = x.Holds()
		if x.CountAfter == r.forfeits.countAfter[x.Bot] {
			continue
		}
		r.forfeits.restart(x.Bot, x.CountAfter)
		err := r.cfg.Store.MatchesAfter(ctx, r.cfg.Game, x.CountAfter, func(m store.Match) error {
			if m.ID > seen {
				return stop
			}
			for _, s := range m.Seats {
				if s.Bot == x.Bot && r.forfeits.addSeat(m, s) {
					r.late = append(r.late, x.Bot)
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, stop) {
			r.forfeits.countAfter[x.Bot] = -1 // counted in part: the next update counts again
			return err
		}
	}
	return nil
}
