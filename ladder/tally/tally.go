// Package tally keeps a ladder's running aggregates: per game the games recorded, the
// last one's time, the pairwise results the official fit needs, the live Elo, and per
// bot version its games, points, endings and meetings with each opponent. The
// exporter's scrapes, the standings, the refits and the bot pages read them from
// memory instead of reading every recorded game each time.
//
// They are built by one read of the history when a process opens them and kept up by
// reading only what was recorded since (Ladder.Refresh, which its owner runs every
// second or so): a Cursor remembers the highest game ID it has seen and asks the store
// for the games above it, so a refresh costs O(new games) whichever process recorded
// them. That is how they stay right on a ladder of many processes (on PostgreSQL the
// workers record games, and the coordinator's exporter and scheduler and the web
// service each keep their own aggregates or Cursor over the one database): the
// database is the only truth, every reader catches up from it, and no process needs to
// hear of another's writes. A game whose ID was taken but whose
// transaction committed after a later one (two workers recording at once) is a hole
// the cursor reads again until it appears (HoleGrace). What a reader gets is as
// fresh as the last refresh.
//
// The live Elo depends on the order of games; a late game is counted when it arrives,
// so after one the live Elo can differ in its last digits from a fresh read's, which
// counts it in ID order. Everything else (totals, points, the official fit) does not
// depend on order and equals a fresh read's exactly.
//
// It is the project's own code: what it counts is this ladder's tables and ratings.
package tally

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
)

// Ladder is the running aggregates of a ladder's games. Its methods are safe for
// concurrent use; readers never wait on the database.
type Ladder struct {
	st   store.Store
	game string

	refresh sync.Mutex // one refresh at a time
	cur     *Cursor

	mu     sync.RWMutex
	loaded bool
	games  map[string]*Game
	bots   []store.Bot
	sus    []store.Suspension
	at     time.Time
	took   time.Duration
}

// Game is one game's aggregates.
type Game struct {
	Name  string
	Games int
	// Last is when the last game ended.
	Last time.Time
	Bots map[int64]*Bot
	// ids numbers the versions in the order they first played (results and live).
	ids     []int64
	index   map[int64]int
	results *rating.Results
	live    *rating.Live
}

// Bot is one version's aggregates in one game.
type Bot struct {
	Games int
	// Points sums the version's game points (rating.Points).
	Points float64
	// Endings counts how its seats ended ("ok", "timeout", "crash"...).
	Endings map[string]int
	// Met is its record against each other version, seat against seat.
	Met map[int64]*Meeting
	// Forfeited are the IDs of its latest games that did not end "ok", newest last,
	// at most KeptForfeits.
	Forfeited []int64
}

// KeptForfeits is how many of a version's latest forfeits Bot.Forfeited keeps: the
// bot page lists 50.
const KeptForfeits = 50

// Forfeits is the version's games that did not end "ok".
func (b *Bot) Forfeits() int { return b.Games - b.Endings["ok"] }

// Meeting is a version's record against one opponent: the games they shared and its
// points against it alone (ahead 1, tied 1/2).
type Meeting struct {
	Games  int
	Points float64
}

// New is the aggregates of game ("" for every game) over st, empty until the first
// Refresh reads the history.
func New(st store.Store, game string) *Ladder {
	return &Ladder{st: st, game: game, cur: NewCursor(st, game), games: map[string]*Game{}}
}

// Open is New and its first Refresh.
func Open(ctx context.Context, st store.Store, game string) (*Ladder, error) {
	l := New(st, game)
	return l, l.Refresh(ctx)
}

// Of is the aggregates of a fixed list of games (a prefix of a history, say), with the
// bots that played them; it has no store and is never refreshed.
func Of(matches []store.Match, bots []store.Bot) *Ladder {
	l := &Ladder{games: map[string]*Game{}, bots: bots, loaded: true, cur: &Cursor{}}
	for _, m := range matches {
		l.add(m)
	}
	return l
}

// Count counts a game the caller read itself, in a Ladder made by Of.
func (l *Ladder) Count(m store.Match) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(m)
}

// Games is how many games of game are counted.
func (l *Ladder) Games(game string) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if g := l.games[game]; g != nil {
		return g.Games
	}
	return 0
}

// Refresh counts the games recorded since the last refresh (at the first, every game)
// and reads the bots and suspensions again. The games are read before the bots, so
// every version a game names is among the bots. On an error the games counted so far
// stay counted and the next refresh goes on from there.
func (l *Ladder) Refresh(ctx context.Context) error {
	l.refresh.Lock()
	defer l.refresh.Unlock()
	start := time.Now()
	err := l.cur.Next(ctx, func(m store.Match) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.add(m)
		return nil
	})
	if err != nil {
		return err
	}
	bots, err := l.st.Bots(ctx, true)
	if err != nil {
		return err
	}
	sus, err := l.st.Suspensions(ctx)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bots, l.sus, l.loaded, l.at, l.took = bots, sus, true, time.Now(), time.Since(start)
	return nil
}

// add counts one game; the caller holds mu.
func (l *Ladder) add(m store.Match) {
	g := l.games[m.Game]
	if g == nil {
		g = &Game{Name: m.Game, Bots: map[int64]*Bot{}, index: map[int64]int{}, results: rating.NewResults(0), live: rating.NewLive(0, rating.DefaultK)}
		l.games[m.Game] = g
	}
	g.add(m)
}

func (g *Game) add(m store.Match) {
	g.Games++
	if m.Finished.After(g.Last) {
		g.Last = m.Finished
	}
	seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
	for i, s := range m.Seats {
		idx, ok := g.index[s.Bot]
		if !ok {
			idx = len(g.ids)
			g.index[s.Bot] = idx
			g.ids = append(g.ids, s.Bot)
			g.results.Grow(len(g.ids))
			g.live.Grow(len(g.ids))
			g.Bots[s.Bot] = &Bot{Endings: map[string]int{}, Met: map[int64]*Meeting{}}
		}
		seats[i], places[i] = idx, s.Place
	}
	// A recorded game was checked when it was played; one the ratings refuse (more
	// seats than they rate) still counts in the totals.
	_ = g.results.Add(strconv.FormatInt(m.Block, 10), seats, places)
	_ = g.live.Update(seats, places)
	for i, s := range m.Seats {
		b := g.Bots[s.Bot]
		b.Games++
		b.Points += rating.Points(places, i)
		b.Endings[s.Ending]++
		if s.Ending != "ok" {
			b.forfeited(m.ID)
		}
		for j, o := range m.Seats {
			if j == i || o.Bot == s.Bot {
				continue
			}
			mt := b.Met[o.Bot]
			if mt == nil {
				mt = &Meeting{}
				b.Met[o.Bot] = mt
			}
			mt.Games++
			mt.Points += rating.Points([]int{s.Place, o.Place}, 0)
		}
	}
}

// forfeited keeps a forfeit's game among the latest; a late game (a hole filled)
// takes its place in ID order.
func (b *Bot) forfeited(id int64) {
	i, _ := slices.BinarySearch(b.Forfeited, id)
	b.Forfeited = slices.Insert(b.Forfeited, i, id)
	if len(b.Forfeited) > KeptForfeits {
		b.Forfeited = slices.Delete(b.Forfeited, 0, 1)
	}
}

// View is what a reader sees of the aggregates, under a read lock that Read holds
// while fn runs: fn must not keep the maps.
type View struct {
	// Loaded is false until the first refresh is done; the rest is empty until then.
	Loaded bool
	Games  map[string]*Game
	Bots   []store.Bot
	// Suspensions are every suspension, lifted ones too.
	Suspensions []store.Suspension
	// At is when the last refresh ended, Took how long it took.
	At   time.Time
	Took time.Duration
	// Last is the highest game ID counted.
	Last int64
}

// Read calls fn with the aggregates as they stand; refreshes wait until it returns.
func (l *Ladder) Read(fn func(View)) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	fn(View{Loaded: l.loaded, Games: l.games, Bots: l.bots, Suspensions: l.sus, At: l.at, Took: l.took, Last: l.cur.Last()})
}

// Rated is a copy of one game's rating inputs, numbered as a fresh read of the
// history numbers them: the versions that played, in the order of Bots (oldest
// first).
type Rated struct {
	Game  string
	Games int
	// IDs are the versions, Results their pairwise results, Elo and Played their live
	// Elo and games, Points their summed points: all by the same number.
	IDs     []int64
	Results *rating.Results
	Elo     []float64
	Played  []int
	Points  []float64
}

// Rated copies the rating inputs of every game, sorted by game, and the bots and
// suspensions they were counted with, so that a fit runs on them without a lock.
func (l *Ladder) Rated() ([]Rated, []store.Bot, []store.Suspension) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	order := map[int64]int{}
	for i, b := range l.bots {
		order[b.ID] = i
	}
	var out []Rated
	for _, g := range l.games {
		out = append(out, g.rated(order))
	}
	slices.SortFunc(out, func(a, b Rated) int { return cmp.Compare(a.Game, b.Game) })
	return out, slices.Clone(l.bots), slices.Clone(l.sus)
}

// rated renumbers g's versions by their place in the bots (order); a version the bots
// lack goes last, in ID order, for the caller to refuse.
func (g *Game) rated(order map[int64]int) Rated {
	ids := slices.Clone(g.ids)
	pos := func(id int64) int64 {
		if p, ok := order[id]; ok {
			return int64(p)
		}
		return int64(len(order)) + id
	}
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Compare(pos(a), pos(b)) })
	to := make([]int, len(g.ids))
	r := Rated{Game: g.Name, Games: g.Games, IDs: ids, Elo: make([]float64, len(ids)), Played: make([]int, len(ids)), Points: make([]float64, len(ids))}
	for n, id := range ids {
		old := g.index[id]
		to[old] = n
		r.Elo[n], r.Played[n], r.Points[n] = g.live.Elo[old], g.live.Games[old], g.Bots[id].Points
	}
	r.Results = g.results.Renumbered(to, len(ids))
	return r
}
