package ladder

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
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
// empty), by official Elo. It streams the recorded games twice (first to learn which
// versions played, then to count their results), so its memory grows with the bots
// and blocks, not with the games.
func Standings(ctx context.Context, st store.Store, game string, opt StandingsOptions) ([]Table, error) {
	if opt.Resamples == 0 {
		opt.Resamples = rating.DefaultResamples
	}
	if opt.Prior == 0 {
		opt.Prior = rating.DefaultPrior
	}
	bots, err := st.Bots(ctx, true)
	if err != nil {
		return nil, err
	}
	sus, err := st.Suspensions(ctx)
	if err != nil {
		return nil, err
	}
	played := map[string]map[int64]bool{}
	err = st.Matches(ctx, game, func(m store.Match) error {
		if played[m.Game] == nil {
			played[m.Game] = map[int64]bool{}
		}
		for _, s := range m.Seats {
			played[m.Game][s.Bot] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	builders := map[string]*tableBuilder{}
	for g, ids := range played {
		builders[g] = newTableBuilder(g, bots, ids)
	}
	err = st.Matches(ctx, game, func(m store.Match) error {
		b, ok := builders[m.Game]
		if !ok { // recorded between the two passes
			return nil
		}
		return b.add(m)
	})
	if err != nil {
		return nil, err
	}
	games := make([]string, 0, len(builders))
	for g := range builders {
		games = append(games, g)
	}
	slices.Sort(games)
	var out []Table
	for _, g := range games {
		t, err := builders[g].table(bots, sus, opt)
		if err != nil {
			return nil, fmt.Errorf("standings of %s: %w", g, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// tableBuilder counts one game's recorded results as they stream by.
type tableBuilder struct {
	t      Table
	index  map[int64]int // bot ID to its place in rated
	rated  []store.Bot   // the versions that played, in the order of bots
	res    *rating.Results
	live   *rating.Live
	points []float64
	// frozen is the set of versions known to have played when counting began: a
	// game recorded since, with a newcomer, is left to the next standings.
	frozen map[int64]bool
}

func newTableBuilder(game string, bots []store.Bot, played map[int64]bool) *tableBuilder {
	// Only versions that played are rated: a bot without games would sit at the
	// prior's centre and mean nothing.
	b := &tableBuilder{t: Table{Game: game}, index: map[int64]int{}, frozen: played}
	for _, bot := range bots {
		if played[bot.ID] {
			b.index[bot.ID] = len(b.rated)
			b.rated = append(b.rated, bot)
		}
	}
	n := len(b.rated)
	b.res, b.live, b.points = rating.NewResults(n), rating.NewLive(n, rating.DefaultK), make([]float64, n)
	return b
}

func (b *tableBuilder) add(m store.Match) error {
	seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
	for i, s := range m.Seats {
		idx, ok := b.index[s.Bot]
		if !ok {
			if b.frozen[s.Bot] {
				return fmt.Errorf("game %d: seat %d is bot %d, which is not on the ladder", m.ID, i, s.Bot)
			}
			return nil // a newcomer's game recorded between the passes
		}
		seats[i], places[i] = idx, s.Place
	}
	if err := b.res.Add(strconv.FormatInt(m.Block, 10), seats, places); err != nil {
		return fmt.Errorf("game %d: %w", m.ID, err)
	}
	if err := b.live.Update(seats, places); err != nil {
		return fmt.Errorf("game %d: %w", m.ID, err)
	}
	for i := range seats {
		b.points[seats[i]] += Points(places, i)
	}
	b.t.Games++
	return nil
}

func (b *tableBuilder) table(bots []store.Bot, sus []store.Suspension, opt StandingsOptions) (Table, error) {
	t, rated, live := b.t, b.rated, b.live
	for id := range b.frozen {
		if _, ok := b.index[id]; !ok {
			return t, fmt.Errorf("a game's seat is bot %d, which is not on the ladder", id)
		}
	}
	held := map[int64]string{}
	for _, x := range sus {
		if x.Holds() {
			held[x.Bot] = x.Reason
		}
	}
	anchor := -1
	for i, bot := range rated {
		if bot.Builtin == AnchorBot && (anchor < 0 || live.Games[i] > live.Games[anchor]) {
			anchor = i
		}
	}
	if anchor >= 0 {
		t.Anchor = label(rated[anchor])
	}
	fit, err := b.res.Fit(rating.Options{Prior: opt.Prior, Anchor: anchor, Resamples: opt.Resamples, Seed: 1})
	if err != nil {
		return t, err
	}
	for i, bot := range rated {
		if !bot.Active() && !opt.Retired {
			continue
		}
		t.Standings = append(t.Standings, Standing{Bot: bot, Games: live.Games[i], Live: live.Elo[i], Suspended: held[bot.ID],
			Elo: fit[i].Elo, Low: fit[i].Low, High: fit[i].High, Score: b.points[i] / float64(live.Games[i])})
	}
	for _, bot := range bots {
		if _, ok := b.index[bot.ID]; !ok && (bot.Active() || opt.Retired) {
			t.Standings = append(t.Standings, Standing{Bot: bot, Suspended: held[bot.ID],
				Live: math.NaN(), Elo: math.NaN(), Low: math.NaN(), High: math.NaN(), Score: math.NaN()})
		}
	}
	slices.SortStableFunc(t.Standings, func(a, b Standing) int {
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
	for i := range t.Standings {
		t.Standings[i].Rank = i + 1
	}
	return t, nil
}

// Points is seat's score in a game with the given places: the fraction of the other
// seats it finished ahead of, ties counting half.
func Points(places []int, seat int) float64 {
	if len(places) < 2 {
		return 0
	}
	p := 0.0
	for j, pl := range places {
		switch {
		case j == seat:
		case places[seat] < pl:
			p++
		case places[seat] == pl:
			p += 0.5
		}
	}
	return p / float64(len(places)-1)
}

// label names a bot version for people: "name v2".
func label(b store.Bot) string { return fmt.Sprintf("%s v%d", b.Name, b.Version) }
