package ladder

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// AnchorBot is the built-in bot held at Elo 0 when it has played.
const AnchorBot = "random"

// Standing is one bot version's line of the standings of one game.
type Standing struct {
	Rank int
	Bot  store.Bot
	// Games is the number of recorded games the version played.
	Games int
	// Live is the running Elo after the last recorded game.
	Live float64
	// Elo is the official rating with its 95% interval; all NaN before a first game.
	Elo, Low, High float64
	// Score is the mean fraction of opponents finished ahead of, ties counting half.
	Score float64
	// Suspended is the reason of the version's suspension, or empty.
	Suspended string
}

// Table is the standings of one game.
type Table struct {
	Game  string
	Games int
	// Anchor names the bot held at 0, or is empty when the mean rating is 0.
	Anchor    string
	Standings []Standing
}

// StandingsOptions tune Standings.
type StandingsOptions struct {
	// Resamples for the intervals (default rating.DefaultResamples).
	Resamples int
	// Prior in virtual draws (default rating.DefaultPrior).
	Prior float64
	// Retired also lists retired versions.
	Retired bool
}

// Standings ranks the bots of every game with recorded games (of game only, when not
// empty), by official Elo. It reads the history once into running aggregates
// (ladder/tally), so its memory grows with the bots and blocks, not with the games; a
// process that keeps aggregates ranks from them with StandingsOf instead.
func Standings(ctx context.Context, st store.Store, game string, opt StandingsOptions) ([]Table, error) {
	l, err := tally.Open(ctx, st, game)
	if err != nil {
		return nil, err
	}
	return StandingsOf(l, opt)
}

// StandingsOf ranks the bots of every game counted in l, as Standings does.
func StandingsOf(l *tally.Ladder, opt StandingsOptions) ([]Table, error) {
	if opt.Resamples == 0 {
		opt.Resamples = rating.DefaultResamples
	}
	if opt.Prior == 0 {
		opt.Prior = rating.DefaultPrior
	}
	rated, bots, sus := l.Rated()
	var out []Table
	for _, r := range rated {
		t, err := tableOf(r, bots, sus, opt)
		if err != nil {
			return nil, fmt.Errorf("standings of %s: %w", r.Game, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// tableOf ranks one game's versions. Only versions that played are rated: a bot
// without games would sit at the prior's centre and mean nothing.
func tableOf(r tally.Rated, bots []store.Bot, sus []store.Suspension, opt StandingsOptions) (Table, error) {
	t := Table{Game: r.Game, Games: r.Games}
	byID := map[int64]store.Bot{}
	for _, b := range bots {
		byID[b.ID] = b
	}
	rated := make([]store.Bot, len(r.IDs))
	for i, id := range r.IDs {
		b, ok := byID[id]
		if !ok {
			return t, fmt.Errorf("a game's seat is bot %d, which is not on the ladder", id)
		}
		rated[i] = b
	}
	held := map[int64]string{}
	for _, x := range sus {
		if x.Holds() {
			held[x.Bot] = x.Reason
		}
	}
	anchor := -1
	for i, bot := range rated {
		if bot.Builtin == AnchorBot && (anchor < 0 || r.Played[i] > r.Played[anchor]) {
			anchor = i
		}
	}
	if anchor >= 0 {
		t.Anchor = label(rated[anchor])
	}
	fit, err := r.Results.Fit(rating.Options{Prior: opt.Prior, Anchor: anchor, Resamples: opt.Resamples, Seed: 1})
	if err != nil {
		return t, err
	}
	played := map[int64]bool{}
	for i, bot := range rated {
		played[bot.ID] = true
		if !bot.Active() && !opt.Retired {
			continue
		}
		t.Standings = append(t.Standings, Standing{Bot: bot, Games: r.Played[i], Live: r.Elo[i], Suspended: held[bot.ID],
			Elo: fit[i].Elo, Low: fit[i].Low, High: fit[i].High, Score: r.Points[i] / float64(r.Played[i])})
	}
	for _, bot := range bots {
		if !played[bot.ID] && (bot.Active() || opt.Retired) {
			t.Standings = append(t.Standings, Standing{Bot: bot, Suspended: held[bot.ID],
				Live: math.NaN(), Elo: math.NaN(), Low: math.NaN(), High: math.NaN(), Score: math.NaN()})
		}
	}
	rank(t.Standings)
	return t, nil
}

// rank orders standings by official Elo, those without games last, and numbers them.
func rank(ss []Standing) {
	slices.SortStableFunc(ss, func(a, b Standing) int {
		switch {
		case a.Games > 0 && b.Games == 0:
			return -1
		case a.Games == 0 && b.Games > 0:
			return 1
		case a.Elo > b.Elo:
			return -1
		case a.Elo < b.Elo:
			return 1
		}
		return 0
	})
	for i := range ss {
		ss[i].Rank = i + 1
	}
}

// Points is seat's score in a game with the given places: the fraction of the other
// seats it finished ahead of, ties counting half.
func Points(places []int, seat int) float64 { return rating.Points(places, seat) }

// label names a bot version for people: "name v2".
func label(b store.Bot) string { return fmt.Sprintf("%s v%d", b.Name, b.Version) }
