package service_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games" // the games replays are played in
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// played is a game to record: its bots by seat, and the forfeit of one seat (none
// when forfeit is "") at decision at.
type played struct {
	bots     []store.Bot
	forfeit  string
	seat, at int
	finished time.Time
	// stderr is what each seat's bot wrote, kept as the runner keeps it per seat.
	stderr []string
	// inStore keeps the replay in the database with the game, and no file of it, as
	// `ladder run` keeps it.
	inStore bool
}

// record plays g for real (every seat takes the first option), writes its replay and
// stderr files where the runner puts them, and records it as a block of its own.
func (site *ladderSite) record(t *testing.T, g played) store.Match {
	t.Helper()
	ids := make([]int64, len(g.bots))
	for i, b := range g.bots {
		ids[i] = b.ID
	}
	blk, err := site.st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 7, Bots: ids, Rotations: 1})
	require.NoError(t, err)
	dir := filepath.Join(site.st.Dir(), "replays", "ivanhoe", fmt.Sprintf("block-%d", blk.ID))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, "game.jsonl")
	res := writeReplay(t, path, g)
	m := store.Match{Block: blk.ID, Game: "ivanhoe", Seed: 7, Replay: path, Started: g.finished.Add(-time.Second), Finished: g.finished}
	for i, b := range g.bots {
		st := store.Seat{Bot: b.ID, Place: res.Place[i], Score: res.Score[i], Ending: "ok"}
		if g.forfeit != "" && i == g.seat {
			st.Ending = g.forfeit
		}
		m.Seats = append(m.Seats, st)
		if i < len(g.stderr) {
			name := fmt.Sprintf("stderr-%d-%s v%d-seat-%d.log", i, b.Name, b.Version, i)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(g.stderr[i]), 0o644))
		}
	}
	if g.inStore {
		m.ReplayData, err = os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.Remove(path))
	}
	m, err = site.st.RecordMatch(ctx, m)
	require.NoError(t, err)
	return m
}

// writeReplay writes a real replay of g: each seat plays its first option, and the
// forfeit, if any, is recorded at its decision.
func writeReplay(t *testing.T, path string, g played) engine.Result {
	t.Helper()
	game, err := engine.NewWith("ivanhoe", 7, len(g.bots), nil)
	require.NoError(t, err)
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	enc := json.NewEncoder(f)
	labels := make([]string, len(g.bots))
	for i, b := range g.bots {
		labels[i] = fmt.Sprintf("%s v%d", b.Name, b.Version)
	}
	require.NoError(t, enc.Encode(arena.Record{Type: "match", Format: arena.ReplayFormat, Game: "ivanhoe", Seed: 7, Players: len(g.bots), Bots: labels}))
	n := 0
	for ; !game.Terminal(); n++ {
		if g.forfeit != "" && n == g.at {
			var e arena.Ending
			require.NoError(t, e.UnmarshalText([]byte(g.forfeit)))
			require.NoError(t, enc.Encode(arena.Record{Type: "ending", Seat: g.seat, Ending: &e, N: n, Detail: "no answer in time"}))
		}
		o := game.Options()[0]
		require.NoError(t, enc.Encode(arena.Record{Type: "decision", N: n, Seat: game.ToMove(), Choice: 0,
			Option: &arena.OptionJSON{Kind: o.Kind, A: o.A, B: o.B, C: o.C, D: o.D}, Text: game.Describe(o), Forfeit: g.forfeit != "" && n > g.at && game.ToMove() == g.seat}))
		require.NoError(t, game.Apply(0))
	}
	require.Greater(t, n, g.at, "the forfeit falls within the game")
	r := game.Result()
	require.NoError(t, enc.Encode(arena.Record{Type: "result", Place: r.Place, GamePlace: r.Place, Score: r.Score, N: n,
		Adjudicated: r.Adjudicated, Hash: fmt.Sprintf("%016x", game.Hash())}))
	return r
}

// bot adds a bot version; an author's bot is claimed by them first.
func (site *ladderSite) bot(t *testing.T, name string, author int64) store.Bot {
	t.Helper()
	if author != 0 {
		require.NoError(t, site.st.Claim(ctx, author, name))
	}
	b, err := site.st.AddBot(ctx, store.Bot{Name: name, SHA256: "sha-" + name, Builtin: "random"})
	require.NoError(t, err)
	return b
}

// games gets a page of /api/games.
func (site *ladderSite) games(t *testing.T, query string) service.GamesJSON {
	t.Helper()
	r := do(t, "GET", site.base+"/api/games"+query, nil, nil)
	require.Equal(t, 200, r.code, "%s: %s", query, r.body)
	var page service.GamesJSON
	require.NoError(t, json.Unmarshal([]byte(r.body), &page))
	return page
}

func gameIDs(page service.GamesJSON) []int64 {
	var ids []int64
	for _, g := range page.Games {
		ids = append(ids, g.ID)
	}
	return ids
}

// forfeitLadder records seven games over three days: annbot (ann's) times out in
// two, crashes in one; the operator's random crashes in one; one game is without
// annbot. It returns the games in the order recorded.
func forfeitLadder(t *testing.T, site *ladderSite) (annbot, random, heuristic store.Bot, games []store.Match) {
	annbot, random, heuristic = site.bot(t, "annbot", 1), site.bot(t, "random", 0), site.bot(t, "heuristic", 0)
	day := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for i, g := range []played{
		{bots: []store.Bot{annbot, random}, finished: day},
		{bots: []store.Bot{random, annbot}, forfeit: "timeout", seat: 1, at: 3, finished: day.Add(time.Hour)},
		{bots: []store.Bot{random, heuristic}, finished: day.AddDate(0, 0, 1)},
		{bots: []store.Bot{annbot, heuristic}, forfeit: "crash", seat: 0, at: 5, finished: day.AddDate(0, 0, 1)},
		{bots: []store.Bot{annbot, random}, forfeit: "timeout", seat: 0, at: 8, finished: day.AddDate(0, 0, 2)},
		{bots: []store.Bot{random, annbot}, forfeit: "crash", seat: 0, at: 2, finished: day.AddDate(0, 0, 2)},
		{bots: []store.Bot{heuristic, annbot}, finished: day.AddDate(0, 0, 2)},
	} {
		g.stderr = []string{fmt.Sprintf("seat 0 of game %d\n", i+1), fmt.Sprintf("seat 1 of game %d\n", i+1)}
		games = append(games, site.record(t, g))
	}
	return annbot, random, heuristic, games
}

// /api/games finds every game by bot, author, ending and day, newest first, and
// pages through them by links that neither skip nor repeat a game; each forfeit
// carries the decision it happened at and the game's page there.
func TestAPIGamesFindsAnyGame(t *testing.T) {
	site := newSite(t, service.Limits{})
	annbot, random, _, g := forfeitLadder(t, site)
	id := func(i ...int) []int64 {
		var out []int64
		for _, x := range i {
			out = append(out, g[x-1].ID)
		}
		return out
	}

	page := site.games(t, "?bot=annbot&ending=timeout")
	require.Equal(t, id(5, 2), gameIDs(page), "annbot's timeouts, newest first")
	seat := page.Games[0].Seats[0]
	assert.Equal(t, "annbot", seat.Bot)
	assert.Equal(t, "ann", seat.Author)
	assert.Equal(t, "timeout", seat.Ending)
	require.NotNil(t, seat.Step)
	assert.Equal(t, 8, *seat.Step)
	assert.Equal(t, fmt.Sprintf("/games/%d?seat=0&step=8", g[4].ID), seat.AtStep)
	assert.Equal(t, "/games/"+fmt.Sprint(g[4].ID), page.Games[0].Page)
	assert.Nil(t, page.Games[0].Seats[1].Step, "no step for a seat that did not forfeit")
	assert.Empty(t, page.Next)

	assert.Equal(t, id(5, 4, 2), gameIDs(site.games(t, "?bot=annbot&ending=forfeit")), "game 6 is random's crash")
	assert.Equal(t, id(6), gameIDs(site.games(t, "?bot=random&ending=crash")), "random's crash; annbot's crash is not random's")
	assert.Equal(t, id(6, 4), gameIDs(site.games(t, "?ending=crash")), "any seat")
	assert.Equal(t, id(7, 6, 5, 4, 2, 1), gameIDs(site.games(t, "?author=ann")))
	assert.Empty(t, site.games(t, "?author=bob").Games)
	assert.Equal(t, id(4, 3), gameIDs(site.games(t, "?from=2026-11-21&to=2026-11-21")))
	assert.Equal(t, id(7, 6, 5), gameIDs(site.games(t, "?bot=annbot&version=1&from=2026-11-22")))

	// Three at a time: next leads to older games, previous back to newer ones.
	var all []int64
	var pages []service.GamesJSON
	for next := "/api/games?limit=3"; next != ""; {
		u, err := url.Parse(next)
		require.NoError(t, err)
		p := site.games(t, "?"+u.RawQuery)
		assert.LessOrEqual(t, len(p.Games), 3)
		all, pages, next = append(all, gameIDs(p)...), append(pages, p), p.Next
	}
	assert.Equal(t, id(7, 6, 5, 4, 3, 2, 1), all)
	require.Len(t, pages, 3)
	assert.Empty(t, pages[0].Previous)
	u, err := url.Parse(pages[1].Previous)
	require.NoError(t, err)
	assert.Equal(t, gameIDs(pages[0]), gameIDs(site.games(t, "?"+u.RawQuery)), "previous is the page before")
	assert.Contains(t, pages[1].Next, "limit=3", "the page's size is kept")

	// A newer game shifts no page already handed out.
	site.record(t, played{bots: []store.Bot{annbot, random}, finished: time.Now()})
	u, err = url.Parse(pages[0].Next)
	require.NoError(t, err)
	assert.Equal(t, gameIDs(pages[1]), gameIDs(site.games(t, "?"+u.RawQuery)))
}

// Bad filters are refused in one line, never answered with every game.
func TestAPIGamesRefusesBadFilters(t *testing.T) {
	site := newSite(t, service.Limits{})
	forfeitLadder(t, site)
	for q, want := range map[string]struct {
		code int
		msg  string
	}{
		"?page=2":               {400, `unknown parameter "page"`},
		"?ending=lost":          {400, "ending is one of ok, timeout, crash"},
		"?bot=nobody":           {404, "no bot named nobody"},
		"?bot=annbot&version=9": {404, "bot annbot has no version 9"},
		"?version=1":            {400, "version needs bot"},
		"?before=3&after=1":     {400, "not both"},
		"?from=yesterday":       {400, "from is a date, YYYY-MM-DD"},
		"?limit=1000":           {400, "limit is a number from 1 to 200"},
		"?bot=../x":             {400, "a bot name is"},
	} {
		r := do(t, "GET", site.base+"/api/games"+q, nil, nil)
		assert.Equal(t, want.code, r.code, q)
		assert.Contains(t, r.body, want.msg, q)
		assert.Equal(t, 1, strings.Count(r.body, "\n"), "one line: %q", r.body)
		page := do(t, "GET", site.base+"/games"+q, nil, nil)
		assert.Equal(t, want.code, page.code, "the page: %s", q)
	}
}

// The /games page filters as the API does, marks each forfeit with a link to its
// decision, and links its pages.
func TestGamesPageMarksForfeits(t *testing.T) {
	site := newSite(t, service.Limits{})
	_, _, _, g := forfeitLadder(t, site)
	r := do(t, "GET", site.base+"/games?bot=annbot&ending=forfeit&limit=2", nil, nil)
	require.Equal(t, 200, r.code, r.body)
	marks := regexp.MustCompile(`class="forfeit err" href="([^"]+)">(\w+) at decision (\d+)<`).FindAllStringSubmatch(r.body, -1)
	require.Len(t, marks, 2, r.body)
	assert.Equal(t, fmt.Sprintf("/games/%d?seat=0&amp;step=8", g[4].ID), marks[0][1])
	assert.Equal(t, "timeout", marks[0][2])
	assert.Equal(t, "crash", marks[1][2])
	older := regexp.MustCompile(`class="older" href="([^"]+)"`).FindStringSubmatch(r.body)
	require.NotNil(t, older, r.body)
	next := do(t, "GET", site.base+strings.ReplaceAll(older[1], "&amp;", "&"), nil, nil)
	require.Equal(t, 200, next.code)
	assert.Contains(t, next.body, fmt.Sprintf(`href="/games/%d"`, g[1].ID), "the oldest timeout on the next page")
	assert.Contains(t, next.body, `value="annbot"`, "the filters stay filled in")
}
