package ladder

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// RatingPoint is a bot's official rating after the ladder's first Games games.
type RatingPoint struct {
	// LadderGames is how many games of the ladder the fit saw; BotGames how many of
	// them the bot played.
	LadderGames, BotGames int
	Elo, Low, High        float64
}

// Opponent is how a bot fared against one other bot version, seat against seat.
type Opponent struct {
	Bot   store.Bot
	Games int
	// Score is the share of those meetings the bot finished ahead, ties half.
	Score float64
}

// BotReport is one bot version's record in one game.
type BotReport struct {
	Bot   store.Bot
	Game  string
	Games int
	// History is the official rating refitted on growing prefixes of the ladder's
	// games, oldest first.
	History   []RatingPoint
	Opponents []Opponent
	// Endings counts how the bot's seats ended: "ok", "timeout", "crash", "illegal"...
	Endings map[string]int
}

// Report gathers a bot version's record in game: its rating refitted at points
// moments of the ladder's history (each with its interval), its score against each
// opponent, and how its games ended. It reads only through the store: the history
// once into aggregates, once more for the curve. A process that keeps aggregates and
// curves uses ReportFrom.
func Report(ctx context.Context, st store.Store, game string, bot int64, points int, opt StandingsOptions) (BotReport, error) {
	l, err := tally.Open(ctx, st, game)
	if err != nil {
		return BotReport{}, err
	}
	curves, err := Curves(ctx, st, game, l.Games(game), points, opt)
	if err != nil {
		return BotReport{}, err
	}
	return ReportFrom(l, game, bot, curves[bot])
}

// ReportFrom is a bot version's record from running aggregates, with its rating
// history as Curves drew it; the error wraps store.ErrNotFound for a version the
// ladder does not have.
func ReportFrom(l *tally.Ladder, game string, bot int64, history []RatingPoint) (BotReport, error) {
	rep := BotReport{Game: game, Endings: map[string]int{}, History: history}
	found := false
	l.Read(func(v tally.View) {
		byID := map[int64]store.Bot{}
		for _, b := range v.Bots {
			byID[b.ID] = b
		}
		rep.Bot, found = byID[bot]
		g := v.Games[game]
		if g == nil || g.Bots[bot] == nil {
			return
		}
		b := g.Bots[bot]
		rep.Games = b.Games
		maps.Copy(rep.Endings, b.Endings)
		for id, mt := range b.Met {
			rep.Opponents = append(rep.Opponents, Opponent{Bot: byID[id], Games: mt.Games, Score: mt.Points / float64(mt.Games)})
		}
	})
	if !found {
		return rep, store.ErrNotFound
	}
	slices.SortFunc(rep.Opponents, func(a, b Opponent) int { return cmp.Compare(a.Bot.ID, b.Bot.ID) })
	return rep, nil
}

// Curves refits the official ratings of game on growing prefixes of its first games
// games (points of them, evenly spaced), in one read of the history, and returns each
// version's curve: the bot page's rating over time, for every bot at once. Its cost is
// points fits of up to the ladder's blocks (50 resamples each unless opt says), so a
// process redraws the curves when the ladder has grown by a point's worth of games,
// not on every page.
func Curves(ctx context.Context, st store.Store, game string, games, points int, opt StandingsOptions) (map[int64][]RatingPoint, error) {
	if opt.Resamples == 0 {
		opt.Resamples = 50 // a curve of many fits; its bands need less precision than the standings
	}
	if opt.Prior == 0 {
		opt.Prior = rating.DefaultPrior
	}
	opt.Retired = true
	bots, err := st.Bots(ctx, true)
	if err != nil {
		return nil, err
	}
	out := map[int64][]RatingPoint{}
	l := tally.Of(nil, bots)
	n, k, stop := 0, 1, errors.New("enough games")
	next := func() int { // the next prefix's length, past the last
		for ; k <= points; k++ {
			if at := games * k / points; at > n {
				return at
			}
		}
		return -1
	}
	at := next()
	err = st.Matches(ctx, game, func(m store.Match) error {
		if at < 0 {
			return stop
		}
		l.Count(m)
		if n++; n < at {
			return nil
		}
		if err := addPoints(out, l, game, n, opt); err != nil {
			return err
		}
		at = next()
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return nil, err
	}
	return out, nil
}

// addPoints fits the games counted so far and adds each version's point.
func addPoints(out map[int64][]RatingPoint, l *tally.Ladder, game string, n int, opt StandingsOptions) error {
	rated, bots, _ := l.Rated()
	for _, r := range rated {
		if r.Game != game {
			continue
		}
		t, err := tableOf(r, bots, nil, opt)
		if err != nil {
			return err
		}
		for _, s := range t.Standings {
			if s.Games > 0 {
				out[s.Bot.ID] = append(out[s.Bot.ID], RatingPoint{LadderGames: n, BotGames: s.Games, Elo: s.Elo, Low: s.Low, High: s.High})
			}
		}
	}
	return nil
}
