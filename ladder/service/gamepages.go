package service

import (
	"context"
	"errors"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// A page of games is read by game ID, not by reading every recorded game: the page
// after a game reads forward from it; the newest page, or the page before a game,
// reads backwards in windows of IDs that grow fourfold until the page is full. A
// query that few games meet still reads far back, at worst the whole history.

var errPageRead = errors.New("read enough")

// pageAfter keeps the first limit games after q.after (and below q.before, if set),
// oldest first.
func (s *Service) pageAfter(ctx context.Context, q gameQuery, set *gameSet) error {
	err := s.cfg.Store.MatchesAfter(ctx, s.cfg.Game, q.after, func(m store.Match) error {
		if !q.selects(m, set.subject) {
			return nil
		}
		if q.before > 0 && m.ID >= q.before || len(set.games) == q.limit {
			set.newer = true
			return errPageRead
		}
		set.games = append(set.games, m)
		return nil
	})
	if err != nil && !errors.Is(err, errPageRead) {
		return err
	}
	older, err := s.below(ctx, q, set.subject, q.after+1, 0)
	set.older = len(older) > 0
	return err
}

// pageBefore keeps the last limit games below q.before (below none when 0), oldest
// first.
func (s *Service) pageBefore(ctx context.Context, q gameQuery, set *gameSet) error {
	games, err := s.below(ctx, q, set.subject, q.before, q.limit)
	if err != nil {
		return err
	}
	if len(games) > q.limit {
		games, set.older = games[len(games)-q.limit:], true
	}
	set.games = games
	if q.before == 0 {
		return nil
	}
	err = s.cfg.Store.MatchesAfter(ctx, s.cfg.Game, q.before-1, func(m store.Match) error {
		if q.selects(m, set.subject) {
			set.newer = true
			return errPageRead
		}
		return nil
	})
	if errors.Is(err, errPageRead) {
		return nil
	}
	return err
}

// below reads the games q selects with an ID below hi (any, when 0), newest windows
// first, until it has more than limit of them or reached the first game; they come
// oldest first.
func (s *Service) below(ctx context.Context, q gameQuery, subject map[int64]bool, hi int64, limit int) ([]store.Match, error) {
	top := hi
	if top == 0 {
		top = s.hist.last() + 1 // the first window is open above: games recorded since
	}
	var out []store.Match
	for w, upper, first := int64(4*limit+16), top, true; ; w *= 4 {
		lo := max(0, upper-1-w)
		bounded := hi > 0 || !first
		var win []store.Match
		err := s.cfg.Store.MatchesAfter(ctx, s.cfg.Game, lo, func(m store.Match) error {
			if bounded && m.ID >= upper {
				return errPageRead
			}
			if q.selects(m, subject) {
				win = append(win, m)
			}
			return nil
		})
		if err != nil && !errors.Is(err, errPageRead) {
			return nil, err
		}
		out = append(win, out...)
		if len(out) > limit || lo == 0 {
			return out, nil
		}
		upper, first = lo+1, false
	}
}

// last is the highest game ID the aggregates have counted.
func (h *history) last() int64 {
	var last int64
	h.agg.Read(func(v tally.View) { last = v.Last })
	return last
}
