package tally

import (
	"context"
	"errors"
	"time"

	"github.com/arena-games/arena/ladder/store"
)

// HoleGrace is how long a missing game ID is waited for. IDs are taken when a game's
// transaction writes it and seen when it commits, so on a server database a reader may
// see game 12 before game 11 commits; the cursor looks for 11 again at every read
// until it appears or is this old (a write that failed, such as a duplicate, leaves an
// ID that never comes). A recording transaction lasts milliseconds; this allows for a
// database stalled for minutes. At the first read only the gaps among the newest
// maxGap IDs are waited for: the older ones are failed writes of long ago.
const HoleGrace = 10 * time.Minute

// Cursor follows the games recorded in a store, handing each to its reader once: the
// first read streams the whole history, every later one only what was recorded since
// (the games above the last ID seen, and the IDs below it that were missing).
type Cursor struct {
	st   store.Store
	game string
	last int64
	// holes are the missing IDs below last, with when each was first missed.
	holes map[int64]time.Time
	now   func() time.Time
}

// NewCursor follows the games of game ("" for every game) recorded in st.
func NewCursor(st store.Store, game string) *Cursor {
	return &Cursor{st: st, game: game, holes: map[int64]time.Time{}, now: time.Now}
}

// Last is the highest game ID the cursor has handed out.
func (c *Cursor) Last() int64 { return c.last }

// Holes is how many IDs below Last the cursor still waits for.
func (c *Cursor) Holes() int { return len(c.holes) }

// Next calls fn for every game recorded since the last call, in ID order but for the
// late ones, and stops at fn's first error. It is not safe for concurrent use. A
// game is read whatever its game (IDs are shared by all games, so a gap is a hole only
// when no game holds the ID); fn hears only the cursor's game.
func (c *Cursor) Next(ctx context.Context, fn func(store.Match) error) error {
	if err := c.late(ctx, fn); err != nil {
		return err
	}
	first := c.last == 0
	err := c.st.MatchesAfter(ctx, "", c.last, func(m store.Match) error {
		if gap := m.ID - c.last - 1; gap <= maxGap {
			for id := c.last + 1; id < m.ID; id++ {
				c.holes[id] = c.now()
			}
		}
		c.last = m.ID
		return c.hand(m, fn)
	})
	if first { // of the history's gaps only the newest can be games still being written
		for id := range c.holes {
			if id <= c.last-maxGap {
				delete(c.holes, id)
			}
		}
	}
	return err
}

// maxGap is the widest run of missing IDs taken for games still being written: that
// many writers at once is far beyond any fleet, so a wider gap is IDs that never held
// a game (a ladder copied from another database, say), not waited for.
const maxGap = 1000

// late reads the holes again: a game found is handed out, a hole past HoleGrace is
// given up.
func (c *Cursor) late(ctx context.Context, fn func(store.Match) error) error {
	for id, since := range c.holes {
		m, err := c.st.Match(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			if c.now().Sub(since) > HoleGrace {
				delete(c.holes, id)
			}
			continue
		case err != nil:
			return err
		}
		delete(c.holes, id)
		if err := c.hand(m, fn); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cursor) hand(m store.Match, fn func(store.Match) error) error {
	if c.game != "" && m.Game != c.game {
		return nil
	}
	return fn(m)
}
