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
// empty), by official Elo.
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
	byGame := map[string][]store.Match{}
	var games []string
	err = st.Matches(ctx, game, func(m store.Match) error {
		if _, ok := byGame[m.Game]; !ok {
			games = append(games, m.Game)
		}
		byGame[m.Game] = append(byGame[m.Game], m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(games)
	var out []Table
	for _, g := range games {
		t, err := standingsOf(g, bots, byGame[g], opt)
		if err != nil {
			return nil, fmt.Errorf("standings of %s: %w", g, err)
		}
		out = append(out, t)
	}
	return out, nil
}

func standingsOf(game string, bots []store.Bot, matches []store.Match, opt StandingsOptions) (Table, error) {
	t := Table{Game: game, Games: len(matches)}
	// Only versions that played are rated: a bot without games would sit at the
	// prior's centre and mean nothing.
	index := map[int64]int{}
	var rated []store.Bot
	for _, m := range matches {
		for _, s := range m.Seats {
			if _, ok := index[s.Bot]; !ok {
				index[s.Bot] = -1
			}
		}
	}
	for _, b := range bots {
		if _, ok := index[b.ID]; ok {
			index[b.ID] = len(rated)
			rated = append(rated, b)
		}
	}
	n := len(rated)
	res := rating.NewResults(n)
	live := rating.NewLive(n, rating.DefaultK)
	points := make([]float64, n)
	for _, m := range matches {
		seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
		for i, s := range m.Seats {
			idx := index[s.Bot]
			if idx < 0 {
				return t, fmt.Errorf("game %d: seat %d is bot %d, which is not on the ladder", m.ID, i, s.Bot)
			}
			seats[i], places[i] = idx, s.Place
		}
		if err := res.Add(strconv.FormatInt(m.Block, 10), seats, places); err != nil {
			return t, fmt.Errorf("game %d: %w", m.ID, err)
		}
		if err := live.Update(seats, places); err != nil {
			return t, fmt.Errorf("game %d: %w", m.ID, err)
		}
		for i := range seats {
			points[seats[i]] += Points(places, i)
		}
	}
	anchor := -1
	for i, b := range rated {
		if b.Builtin == AnchorBot && (anchor < 0 || live.Games[i] > live.Games[anchor]) {
			anchor = i
		}
	}
	if anchor >= 0 {
		t.Anchor = label(rated[anchor])
	}
	fit, err := res.Fit(rating.Options{Prior: opt.Prior, Anchor: anchor, Resamples: opt.Resamples, Seed: 1})
	if err != nil {
		return t, err
	}
	for i, b := range rated {
		if !b.Active() && !opt.Retired {
			continue
		}
		t.Standings = append(t.Standings, Standing{Bot: b, Games: live.Games[i], Live: live.Elo[i],
			Elo: fit[i].Elo, Low: fit[i].Low, High: fit[i].High, Score: points[i] / float64(live.Games[i])})
	}
	for _, b := range bots {
		if _, ok := index[b.ID]; !ok && (b.Active() || opt.Retired) {
			t.Standings = append(t.Standings, Standing{Bot: b, Live: math.NaN(), Elo: math.NaN(), Low: math.NaN(), High: math.NaN(), Score: math.NaN()})
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
