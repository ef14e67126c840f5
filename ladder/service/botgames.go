package service

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/arena-games/arena/ladder/store"
)

// botForfeits is what the bot page lists of a version's forfeits: the latest, each
// linked to the decision where it happened, and links to every game and every
// forfeit of the version on /games.
type botForfeits struct {
	Forfeits []forfeitView
	More     bool
	Games    string
	All      string
	// ByEnding links each of the version's endings to its games.
	ByEnding map[string]string
}

type forfeitView struct {
	Game     int64
	Finished string
	Seat     int
	Ending   string
	Step     *int
	At       string // the game page at the forfeit, from the seat's point of view
	Stderr   string // the seat's stderr in that game, for the bot's author
}

// botPageForfeits are the bot page's latest forfeits.
const botPageForfeits = 50

func (s *Service) botForfeits(ctx context.Context, b store.Bot, endings map[string]int) (botForfeits, *refusal) {
	filter := func(ending string) string {
		v := url.Values{"bot": {b.Name}, "version": {strconv.Itoa(b.Version)}}
		if ending != "" {
			v.Set("ending", ending)
		}
		return "/games?" + v.Encode()
	}
	out := botForfeits{Games: filter(""), All: filter("forfeit"), ByEnding: map[string]string{}}
	for e := range endings {
		out.ByEnding[e] = filter(e)
	}
	set, rf := s.latestForfeits(ctx, b.ID)
	if rf != nil {
		return out, rf
	}
	out.More = set.older
	for _, m := range set.games {
		g := s.gameJSON(m, set)
		for _, st := range g.Seats {
			if st.BotID != b.ID || st.Ending == "ok" {
				continue
			}
			at := st.AtStep
			if at == "" {
				at = fmt.Sprintf("/games/%d?seat=%d", m.ID, st.Seat)
			}
			out.Forfeits = append(out.Forfeits, forfeitView{Game: m.ID, Finished: g.Finished, Seat: st.Seat, Ending: st.Ending,
				Step: st.Step, At: at, Stderr: fmt.Sprintf("/me/games/%d/stderr", m.ID)})
		}
	}
	return out, nil
}

// latestForfeits are a version's latest forfeits, newest first, found by their IDs
// in the running aggregates (older says there are more).
func (s *Service) latestForfeits(ctx context.Context, bot int64) (gameSet, *refusal) {
	set, _, rf := s.emptySet(ctx)
	if rf != nil {
		return set, rf
	}
	ids, all := s.hist.latestForfeits(s.cfg.Game, bot)
	ids = ids[max(0, len(ids)-botPageForfeits):]
	set.older = all > len(ids)
	for i := len(ids) - 1; i >= 0; i-- {
		m, err := s.cfg.Store.Match(ctx, ids[i])
		if err != nil {
			return set, internal(err)
		}
		set.games = append(set.games, m)
	}
	return set, nil
}

// emptySet is a set of no games yet, with the ladder's bots and their owners.
func (s *Service) emptySet(ctx context.Context) (gameSet, []store.Bot, *refusal) {
	bots, err := s.cfg.Store.Bots(ctx, true)
	if err != nil {
		return gameSet{}, nil, internal(err)
	}
	set := gameSet{bots: map[int64]store.Bot{}}
	for _, b := range bots {
		set.bots[b.ID] = b
	}
	if set.owners, err = s.cfg.Authors.Owners(ctx); err != nil {
		return set, bots, internal(err)
	}
	return set, bots, nil
}
