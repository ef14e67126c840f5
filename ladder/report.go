package ladder

import (
	"context"
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
// opponent, and how its games ended. It reads only through the store.
func Report(ctx context.Context, st store.Store, game string, bot int64, points int, opt StandingsOptions) (BotReport, error) {
	if opt.Resamples == 0 {
		opt.Resamples = 50 // a curve of many fits; its bands need less precision than the standings
	}
	if opt.Prior == 0 {
		opt.Prior = rating.DefaultPrior
	}
	bots, err := st.Bots(ctx, true)
	if err != nil {
		return BotReport{}, err
	}
	byID := map[int64]store.Bot{}
	for _, b := range bots {
		byID[b.ID] = b
	}
	rep := BotReport{Bot: byID[bot], Game: game, Endings: map[string]int{}}
	if _, ok := byID[bot]; !ok {
		return rep, store.ErrNotFound
	}
	var matches []store.Match
	meet := map[int64]*Opponent{}
	err = st.Matches(ctx, game, func(m store.Match) error {
		matches = append(matches, m)
		me := slices.IndexFunc(m.Seats, func(s store.Seat) bool { return s.Bot == bot })
		if me < 0 {
			return nil
		}
		rep.Games++
		rep.Endings[m.Seats[me].Ending]++
		for j, s := range m.Seats {
			if j == me || s.Bot == bot {
				continue
			}
			o := meet[s.Bot]
			if o == nil {
				o = &Opponent{Bot: byID[s.Bot]}
				meet[s.Bot] = o
			}
			o.Games++
			o.Score += Points([]int{m.Seats[me].Place, s.Place}, 0)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	for _, o := range meet {
		o.Score /= float64(o.Games)
		rep.Opponents = append(rep.Opponents, *o)
	}
	slices.SortFunc(rep.Opponents, func(a, b Opponent) int { return int(a.Bot.ID - b.Bot.ID) })
	opt.Retired = true
	last := -1
	for k := 1; k <= points && len(matches) > 0; k++ {
		n := len(matches) * k / points
		if n == last || n == 0 {
			continue
		}
		last = n
		t, err := standingsOf(game, bots, matches[:n], opt)
		if err != nil {
			return rep, err
		}
		for _, s := range t.Standings {
			if s.Bot.ID == bot && s.Games > 0 {
				rep.History = append(rep.History, RatingPoint{LadderGames: n, BotGames: s.Games, Elo: s.Elo, Low: s.Low, High: s.High})
			}
		}
	}
	return rep, nil
}

// standingsOf ranks the bots of one game's recorded games (a prefix of the ladder's
// history, for a rating curve).
func standingsOf(game string, bots []store.Bot, matches []store.Match, opt StandingsOptions) (Table, error) {
	rated, bots, _ := tally.Of(matches, bots).Rated()
	for _, r := range rated {
		if r.Game == game {
			return tableOf(r, bots, nil, opt)
		}
	}
	return Table{Game: game}, nil
}
