package service

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
)

// gameQuery is what /games and /api/games select: the games of a bot (a name, or one
// version of it) or of an author's bots, by how a seat ended and the day they
// finished, a page at a time, newest first. Pages are cut by game ID (before, after),
// not by offset, so that games recorded meanwhile shift no page.
type gameQuery struct {
	bot      string
	version  int
	author   string
	ending   string
	from, to time.Time // to is the end of its day (exclusive); zero: open
	before   int64
	after    int64
	limit    int
	// vs (a name) and vsVersion select the games where the subject met that bot: the
	// head-to-head's games. opponents are its versions, filled by subjects.
	vs        string
	vsVersion int
	opponents map[int64]bool
}

var gameParams = []string{"bot", "version", "author", "ending", "from", "to", "before", "after", "limit", "vs", "vs_version"}

// gameEndings are the endings a query selects by: a seat's own, or forfeit (any
// but ok).
var gameEndings = []string{"ok", "timeout", "crash", "illegal", "protocol", "forfeit"}

const (
	defaultGamesLimit = 50
	maxGamesLimit     = 200
)

// parseGameQuery reads a query, refusing what it does not know: a mistyped filter
// must not silently show every game.
func parseGameQuery(v url.Values) (gameQuery, *refusal) {
	for k := range v {
		if !slices.Contains(gameParams, k) {
			return gameQuery{}, refuse(http.StatusBadRequest, fmt.Sprintf("unknown parameter %q: games are selected by %s (pages go by before and after, a game ID)", k, strings.Join(gameParams, ", ")))
		}
	}
	q := gameQuery{bot: v.Get("bot"), author: v.Get("author"), ending: v.Get("ending"), limit: defaultGamesLimit,
		vs: v.Get("vs"), opponents: map[int64]bool{}}
	for _, name := range []string{q.bot, q.vs} {
		if name != "" {
			if rf := checkName(name); rf != nil {
				return q, rf
			}
		}
	}
	if q.ending != "" && !slices.Contains(gameEndings, q.ending) {
		return q, refuse(http.StatusBadRequest, "ending is one of "+strings.Join(gameEndings, ", "))
	}
	var rf *refusal
	number := func(name string, most int64) int64 {
		s := v.Get(name)
		if s == "" || rf != nil {
			return 0
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 || n > most {
			rf = refuse(http.StatusBadRequest, fmt.Sprintf("%s is a number from 1 to %d", name, most))
		}
		return n
	}
	q.version, q.before, q.after = int(number("version", 1<<30)), number("before", 1<<62), number("after", 1<<62)
	q.vsVersion = int(number("vs_version", 1<<30))
	if l := number("limit", maxGamesLimit); l > 0 {
		q.limit = int(l)
	}
	q.from, q.to = day(v, "from", &rf), day(v, "to", &rf)
	switch {
	case rf != nil:
		return q, rf
	case q.version > 0 && q.bot == "":
		return q, refuse(http.StatusBadRequest, "version needs bot: a version of which bot?")
	case q.vsVersion > 0 && q.vs == "":
		return q, refuse(http.StatusBadRequest, "vs_version needs vs: a version of which bot?")
	case q.vs != "" && q.bot == "" && q.author == "":
		return q, refuse(http.StatusBadRequest, "vs needs bot or author: whose games against it?")
	case q.before > 0 && q.after > 0:
		return q, refuse(http.StatusBadRequest, "a page is before a game or after one, not both")
	case !q.to.IsZero():
		q.to = q.to.AddDate(0, 0, 1) // the whole day
	}
	return q, nil
}

// day reads a date parameter (YYYY-MM-DD, UTC).
func day(v url.Values, name string, rf **refusal) time.Time {
	s := v.Get(name)
	if s == "" || *rf != nil {
		return time.Time{}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		*rf = refuse(http.StatusBadRequest, name+" is a date, YYYY-MM-DD")
	}
	return t
}

// gameSet is a page of games, newest first, and whether there are newer and older
// ones beyond it.
type gameSet struct {
	games        []store.Match
	newer, older bool
	// subject is the set of bot versions the query is about (nil: every bot).
	subject map[int64]bool
	bots    map[int64]store.Bot
	owners  map[string]string
}

// subjects is the set of bot versions a query's bot and author name; nil for none.
// It fills q.opponents with the versions vs names.
func (q gameQuery) subjects(bots []store.Bot, owners map[string]string) (map[int64]bool, *refusal) {
	if q.vs != "" {
		vs, rf := gameQuery{bot: q.vs, version: q.vsVersion}.subjects(bots, owners)
		if rf != nil {
			return nil, rf
		}
		maps.Copy(q.opponents, vs)
	}
	if q.bot == "" && q.author == "" {
		return nil, nil
	}
	set := map[int64]bool{}
	named := false
	for _, b := range bots {
		if q.bot != "" && b.Name != q.bot {
			continue
		}
		named = true
		if (q.version == 0 || b.Version == q.version) && (q.author == "" || owners[b.Name] == q.author) {
			set[b.ID] = true
		}
	}
	switch {
	case q.bot != "" && !named:
		return nil, refuse(http.StatusNotFound, "no bot named "+q.bot)
	case q.version > 0 && len(set) == 0 && q.author == "":
		return nil, refuse(http.StatusNotFound, fmt.Sprintf("bot %s has no version %d", q.bot, q.version))
	}
	return set, nil
}

// selects reports whether a game is one the query asks for: one of its subject's
// seats (any seat, without a subject) ended as asked, on a day asked for.
func (q gameQuery) selects(m store.Match, subject map[int64]bool) bool {
	if !q.from.IsZero() && m.Finished.Before(q.from) || !q.to.IsZero() && !m.Finished.Before(q.to) {
		return false
	}
	if q.vs != "" && !slices.ContainsFunc(m.Seats, func(st store.Seat) bool { return q.opponents[st.Bot] && !subject[st.Bot] }) {
		return false
	}
	for _, st := range m.Seats {
		if (subject == nil || subject[st.Bot]) && endingIs(st.Ending, q.ending) {
			return true
		}
	}
	return false
}

func endingIs(ending, want string) bool {
	return want == "" || ending == want || want == "forfeit" && ending != "ok"
}

// findGames runs a query over the recorded games, keeping one page of them.
func (s *Service) findGames(ctx context.Context, q gameQuery) (gameSet, *refusal) {
	set, bots, rf := s.emptySet(ctx)
	if rf != nil {
		return set, rf
	}
	if set.subject, rf = q.subjects(bots, set.owners); rf != nil {
		return set, rf
	}
	var err error
	if q.after > 0 {
		err = s.pageAfter(ctx, q, &set)
	} else {
		err = s.pageBefore(ctx, q, &set)
	}
	if err != nil {
		return set, internal(err)
	}
	slices.Reverse(set.games)
	return set, nil
}

// pageLinks are the query strings of the pages beside a set (empty: none).
func (set gameSet) pageLinks(v url.Values) (newer, older string) {
	link := func(key string, id int64) string {
		w := url.Values{}
		for k, vs := range v {
			if k != "before" && k != "after" {
				w[k] = vs
			}
		}
		w.Set(key, strconv.FormatInt(id, 10))
		return "?" + w.Encode()
	}
	if n := len(set.games); n > 0 {
		if set.newer {
			newer = link("after", set.games[0].ID)
		}
		if set.older {
			older = link("before", set.games[n-1].ID)
		}
	}
	return newer, older
}

// GameJSON is a recorded game as /api/games lists it.
type GameJSON struct {
	ID          int64          `json:"id"`
	Game        string         `json:"game"`
	Block       int64          `json:"block"`
	Rotation    int            `json:"rotation"`
	Started     string         `json:"started"`
	Finished    string         `json:"finished"`
	Adjudicated bool           `json:"adjudicated"`
	Seats       []GameSeatJSON `json:"seats"`
	// Page is the game's page; Replay its replay file, for its bots' authors.
	Page   string `json:"page"`
	Replay string `json:"replay"`
}

// GameSeatJSON is one seat of a game: its bot, how it did, and for a forfeit the
// decision it happened at and the game's page there from the seat's point of view.
type GameSeatJSON struct {
	Seat    int    `json:"seat"`
	BotID   int64  `json:"bot_id"`
	Bot     string `json:"bot"`
	Version int    `json:"version"`
	Author  string `json:"author,omitempty"`
	// Place is 1 for first; tied seats share one.
	Place  int    `json:"place"`
	Score  int    `json:"score"`
	Ending string `json:"ending"`
	Step   *int   `json:"forfeit_step,omitempty"`
	AtStep string `json:"forfeit_page,omitempty"`
}

// GamesJSON is a page of /api/games: newest first, with the links of the older
// (next) and newer (previous) pages when there are any.
type GamesJSON struct {
	Games    []GameJSON `json:"games"`
	Next     string     `json:"next,omitempty"`
	Previous string     `json:"previous,omitempty"`
}

// gameJSON describes a game, finding the decision of each forfeit in its replay.
func (s *Service) gameJSON(m store.Match, set gameSet) GameJSON {
	g := GameJSON{ID: m.ID, Game: m.Game, Block: m.Block, Rotation: m.Rotation, Started: m.Started.UTC().Format(time.RFC3339),
		Finished: m.Finished.UTC().Format(time.RFC3339), Adjudicated: m.Adjudicated, Seats: []GameSeatJSON{},
		Page: fmt.Sprintf("/games/%d", m.ID), Replay: fmt.Sprintf("/api/games/%d/replay", m.ID)}
	var steps map[int]int
	for i, st := range m.Seats {
		b := set.bots[st.Bot]
		seat := GameSeatJSON{Seat: i, BotID: b.ID, Bot: b.Name, Version: b.Version, Author: set.owners[b.Name],
			Place: st.Place + 1, Score: st.Score, Ending: st.Ending}
		if st.Ending != "ok" {
			if steps == nil {
				steps = s.forfeitSteps(m)
			}
			if n, ok := steps[i]; ok {
				seat.Step = &n
				seat.AtStep = stepPage(m.ID, i, n)
			}
		}
		g.Seats = append(g.Seats, seat)
	}
	return g
}

// stepPage is the game page at a decision from a seat's point of view.
func stepPage(game int64, seat, step int) string {
	return fmt.Sprintf("/games/%d?seat=%d&step=%d", game, seat, step)
}

// forfeitSteps reads a game's replay for the decision at which each forfeited seat
// forfeited, as the game page numbers its steps (a forfeit after the last decision
// shows at the last). A game without a readable replay has none. Only the ending
// records are decoded (the arena writes each record's type first): a page of 200
// games costs a read of each replay, not a parse.
func (s *Service) forfeitSteps(m store.Match) map[int]int {
	out := map[int]int{}
	// gameJSON has no request's context to pass; the read is one row or one file.
	f, rf := s.openReplay(context.Background(), m)
	if rf != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	decisions := 0
	var endings []arena.Record
	for sc.Scan() {
		switch line := sc.Bytes(); {
		case bytes.HasPrefix(line, []byte(`{"type":"decision"`)):
			decisions++
		case bytes.HasPrefix(line, []byte(`{"type":"ending"`)):
			var e arena.Record
			if json.Unmarshal(line, &e) == nil {
				endings = append(endings, e)
			}
		}
	}
	for _, e := range endings {
		if _, seen := out[e.Seat]; !seen {
			out[e.Seat] = max(0, min(e.N, decisions-1))
		}
	}
	return out
}

// gamesJSON is a page of games as the API gives it, its links to /api/games.
func (s *Service) gamesJSON(r *http.Request) (GamesJSON, *refusal) {
	q, rf := parseGameQuery(r.URL.Query())
	if rf != nil {
		return GamesJSON{}, rf
	}
	set, rf := s.findGames(r.Context(), q)
	if rf != nil {
		return GamesJSON{}, rf
	}
	out := GamesJSON{Games: []GameJSON{}}
	for _, m := range set.games {
		out.Games = append(out.Games, s.gameJSON(m, set))
	}
	newer, older := set.pageLinks(r.URL.Query())
	if older != "" {
		out.Next = "/api/games" + older
	}
	if newer != "" {
		out.Previous = "/api/games" + newer
	}
	return out, nil
}

// gamesView is /games: the filters as given, a page of games, and its neighbours.
type gamesView struct {
	Filter       map[string]string
	Endings      []string
	Games        []GameJSON
	Newer, Older string
}

func (s *Service) gamesPage(r *http.Request) (any, *refusal) {
	page, rf := s.gamesJSON(r)
	if rf != nil {
		return nil, rf
	}
	d := gamesView{Filter: map[string]string{}, Endings: gameEndings, Games: page.Games}
	for _, k := range gameParams {
		d.Filter[k] = r.URL.Query().Get(k)
	}
	newer, older := strings.TrimPrefix(page.Previous, "/api/games"), strings.TrimPrefix(page.Next, "/api/games")
	if newer != "" {
		d.Newer = "/games" + newer
	}
	if older != "" {
		d.Older = "/games" + older
	}
	return d, nil
}
