package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
)

// api mounts the routes of programs (`arena bot submit`, scripts), each described
// in the service's OpenAPI document (openapi.json).
func (s *Service) api(mux *routes) {
	mux.handle("GET /api/standings", func(w http.ResponseWriter, r *http.Request) {
		t, _ := s.standings()
		writeJSON(w, http.StatusOK, standingsJSON(t))
	})
	mux.handle("GET /api/bots", s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
		bots, rf := s.mine(r.Context(), a)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusOK, bots)
	}))
	mux.handle("POST "+apiUpload, s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
		b, rf := s.submitRequest(r, a)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusCreated, b)
	}))
	for action, activate := range map[string]bool{"retire": false, "activate": true} {
		mux.handle("POST /api/bots/{name}/"+action, s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
			b, rf := s.retire(r.Context(), a, r.PathValue("name"), activate)
			if rf != nil {
				s.fail(w, r, rf)
				return
			}
			writeJSON(w, http.StatusOK, b)
		}))
	}
	mux.handle("GET /api/bots/{name}/stderr", s.authed(s.stderr))
	mux.handle("GET /api/games/{id}/replay", s.authed(s.replayFile))
	mux.handle("GET /api/games/{id}/stderr", s.authed(s.gameStderr))
	mux.handle("GET /api/games", func(w http.ResponseWriter, r *http.Request) {
		page, rf := s.gamesJSON(r)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusOK, page)
	})
	mux.handle("GET /api/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openAPI)
	})
}

// authed runs h for requests with a valid token.
func (s *Service) authed(h func(http.ResponseWriter, *http.Request, store.Author)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, rf := s.author(r)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		h(w, r, a)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// BotJSON is a bot version as the API shows it.
type BotJSON struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Version int    `json:"version"`
	SHA256  string `json:"sha256"`
	Active  bool   `json:"active"`
	Added   string `json:"added"`
}

func botJSON(b store.Bot) BotJSON {
	return BotJSON{ID: b.ID, Name: b.Name, Version: b.Version, SHA256: b.SHA256, Active: b.Active(), Added: b.Added.Format(time.RFC3339)}
}

// mine lists every version of the author's bots.
func (s *Service) mine(ctx context.Context, a store.Author) ([]BotJSON, *refusal) {
	names, err := s.cfg.Authors.Owned(ctx, a.ID)
	if err != nil {
		return nil, internal(err)
	}
	all, err := s.cfg.Store.Bots(ctx, true)
	if err != nil {
		return nil, internal(err)
	}
	out := []BotJSON{}
	for _, b := range all {
		for _, n := range names {
			if b.Name == n {
				out = append(out, botJSON(b))
			}
		}
	}
	return out, nil
}

// submitRequest submits the upload guard read (fields name and program).
func (s *Service) submitRequest(r *http.Request, a store.Author) (BotJSON, *refusal) {
	f, hdr, err := r.FormFile("program")
	if err != nil {
		return BotJSON{}, refuse(http.StatusBadRequest, malformedUpload)
	}
	defer f.Close()
	if hdr.Size > s.cfg.Limits.Upload {
		return BotJSON{}, tooLarge("the upload", s.cfg.Limits.Upload)
	}
	b, rf := s.Submit(r.Context(), a, r.FormValue("name"), f)
	return botJSON(b), rf
}

// Submit checks an author's submission against the limits and ownership, then adds
// the program through the configured Submit (smoke test and sandbox of `bot add`).
// A submission that fails counts against the author's submissions of the day, but
// a name it claimed is given up again.
func (s *Service) Submit(ctx context.Context, a store.Author, name string, program io.Reader) (store.Bot, *refusal) {
	if rf := checkName(name); rf != nil {
		return store.Bot{}, rf
	}
	s.submit.Lock()
	defer s.submit.Unlock()
	n, err := s.cfg.Authors.Submissions(ctx, a.ID, time.Now().Add(-24*time.Hour))
	if err != nil {
		return store.Bot{}, internal(err)
	}
	if n >= s.cfg.Limits.PerDay {
		return store.Bot{}, refuse(http.StatusTooManyRequests, fmt.Sprintf("%d submissions in the last 24 hours is the limit; try again later", s.cfg.Limits.PerDay))
	}
	owned, err := s.cfg.Authors.Owned(ctx, a.ID)
	if err != nil {
		return store.Bot{}, internal(err)
	}
	mine := slices.Contains(owned, name)
	if !mine && len(owned) >= s.cfg.Limits.Bots {
		return store.Bot{}, refuse(http.StatusForbidden, fmt.Sprintf("you own %d bots, the limit; submit a new version of one of them instead", len(owned)))
	}
	if err := s.cfg.Authors.CountSubmission(ctx, a.ID); err != nil {
		return store.Bot{}, internal(err)
	}
	if err := s.cfg.Authors.Claim(ctx, a.ID, name); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return store.Bot{}, refuse(http.StatusForbidden, "bot "+name+" is not yours")
		}
		return store.Bot{}, internal(err)
	}
	b, rf := s.add(ctx, name, program)
	if rf != nil && !mine {
		// Only a name without versions is given up, so a racing success keeps it.
		if err := s.cfg.Authors.Unclaim(context.WithoutCancel(ctx), a.ID, name); err != nil {
			s.cfg.Log.Error("giving up the name of a failed submission", "bot", name, "err", err)
		}
	}
	if rf == nil {
		s.cfg.Changed()
	}
	return b, rf
}

// retire retires (or, with activate, reactivates) the author's bot.
func (s *Service) retire(ctx context.Context, a store.Author, name string, activate bool) (BotJSON, *refusal) {
	if rf := s.owned(ctx, a, name); rf != nil {
		return BotJSON{}, rf
	}
	var b store.Bot
	var err error
	if activate {
		vs, verr := s.versions(ctx, name)
		if verr != nil {
			return BotJSON{}, internal(verr)
		}
		if vs[len(vs)-1].Active() {
			return BotJSON{}, refuse(http.StatusConflict, "bot "+name+" is already active")
		}
		b, err = s.cfg.Store.ReactivateBot(ctx, name)
	} else {
		b, err = s.cfg.Store.RetireBot(ctx, name)
	}
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return BotJSON{}, refuse(http.StatusConflict, "bot "+name+" is already active")
	case errors.Is(err, store.ErrNotFound):
		return BotJSON{}, refuse(http.StatusConflict, "bot "+name+" is already retired")
	case err != nil:
		return BotJSON{}, internal(err)
	}
	s.cfg.Changed()
	return botJSON(b), nil
}

// match finds a recorded game by its ID (404 when there is none).
func (s *Service) match(ctx context.Context, idText string) (store.Match, *refusal) {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return store.Match{}, refuse(http.StatusBadRequest, "a game ID is a positive number")
	}
	m, err := s.cfg.Store.Match(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && s.cfg.Game != "" && m.Game != s.cfg.Game:
		return store.Match{}, refuse(http.StatusNotFound, fmt.Sprintf("no game %d", id))
	case err != nil:
		return m, internal(err)
	}
	return m, nil
}

// replayFile sends a game's replay file to an author whose bot played in it.
func (s *Service) replayFile(w http.ResponseWriter, r *http.Request, a store.Author) {
	m, seats, rf := s.myGame(r, a)
	if rf == nil && len(seats) == 0 {
		rf = refuse(http.StatusForbidden, "none of your bots played in this game")
	}
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	f, rf := s.openReplay(r.Context(), m)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.jsonl"`, m.ID))
	io.Copy(w, f)
}

// myGame is the game of the request's {id} and the seats in it of a's bots, by
// seat (none when a has no part in it).
func (s *Service) myGame(r *http.Request, a store.Author) (store.Match, map[int]store.Bot, *refusal) {
	m, rf := s.match(r.Context(), r.PathValue("id"))
	if rf != nil {
		return m, nil, rf
	}
	names, err := s.cfg.Authors.Owned(r.Context(), a.ID)
	if err != nil {
		return m, nil, internal(err)
	}
	bots, err := s.cfg.Store.Bots(r.Context(), true)
	if err != nil {
		return m, nil, internal(err)
	}
	mine := map[int64]store.Bot{}
	for _, b := range bots {
		if slices.Contains(names, b.Name) {
			mine[b.ID] = b
		}
	}
	seats := map[int]store.Bot{}
	for seat, st := range m.Seats {
		if b, ok := mine[st.Bot]; ok {
			seats[seat] = b
		}
	}
	return m, seats, nil
}

// openReplay opens a game's replay, which must belong to the store's directory: from
// the database when the store keeps it there (`ladder run`'s games), else its file.
func (s *Service) openReplay(ctx context.Context, m store.Match) (io.ReadCloser, *refusal) {
	root := filepath.Clean(s.cfg.Store.Dir()) + string(filepath.Separator)
	if m.Replay == "" || !strings.HasPrefix(filepath.Clean(m.Replay), root) {
		return nil, refuse(http.StatusNotFound, fmt.Sprintf("game %d has no replay", m.ID))
	}
	gone := refuse(http.StatusNotFound, fmt.Sprintf("game %d: its replay is gone", m.ID))
	rs, ok := s.cfg.Store.(store.Replays)
	if !ok {
		f, err := os.Open(m.Replay)
		if err != nil {
			return nil, gone
		}
		return f, nil
	}
	b, err := rs.Replay(ctx, m.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, gone
	case err != nil:
		return nil, internal(err)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// StandingJSON is a line of the standings; ratings are null before a first game (or
// unbounded, as an interval at a perfect score can be).
type StandingJSON struct {
	Rank    int      `json:"rank"`
	Bot     BotJSON  `json:"bot"`
	Games   int      `json:"games"`
	Elo     *float64 `json:"elo"`
	EloLow  *float64 `json:"elo_low"`
	EloHigh *float64 `json:"elo_high"`
	Score   *float64 `json:"score"`
}

// TableJSON is the standings of one game.
type TableJSON struct {
	Game      string         `json:"game"`
	Games     int            `json:"games"`
	Anchor    string         `json:"anchor,omitempty"`
	Standings []StandingJSON `json:"standings"`
}

func standingsJSON(tables []ladder.Table) []TableJSON {
	num := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	out := []TableJSON{}
	for _, t := range tables {
		tj := TableJSON{Game: t.Game, Games: t.Games, Anchor: t.Anchor, Standings: []StandingJSON{}}
		for _, s := range t.Standings {
			tj.Standings = append(tj.Standings, StandingJSON{Rank: s.Rank, Bot: botJSON(s.Bot), Games: s.Games,
				Elo: num(s.Elo), EloLow: num(s.Low), EloHigh: num(s.High), Score: num(s.Score)})
		}
		out = append(out, tj)
	}
	return out
}
