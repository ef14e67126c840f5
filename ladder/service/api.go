package service

import (
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

// api mounts the routes of programs (`arena bot submit`, scripts).
func (s *Service) api(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/standings", func(w http.ResponseWriter, r *http.Request) {
		t, _ := s.standings()
		writeJSON(w, http.StatusOK, standingsJSON(t))
	})
	mux.HandleFunc("GET /api/bots", s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
		bots, rf := s.mine(r.Context(), a)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusOK, bots)
	}))
	mux.HandleFunc("POST "+apiUpload, s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
		b, rf := s.submitRequest(r, a)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusCreated, b)
	}))
	for action, activate := range map[string]bool{"retire": false, "activate": true} {
		mux.HandleFunc("POST /api/bots/{name}/"+action, s.authed(func(w http.ResponseWriter, r *http.Request, a store.Author) {
			b, rf := s.retire(r.Context(), a, r.PathValue("name"), activate)
			if rf != nil {
				s.fail(w, r, rf)
				return
			}
			writeJSON(w, http.StatusOK, b)
		}))
	}
	mux.HandleFunc("GET /api/bots/{name}/stderr", s.authed(s.stderr))
	mux.HandleFunc("GET /api/games/{id}/replay", s.authed(s.replayFile))
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
		return BotJSON{}, refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("the upload is larger than the limit of %d bytes", s.cfg.Limits.Upload))
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

// add writes the program to a file of its own and adds it through the configured
// Submit. A failed smoke test tells the author how their bot's seat ended and what
// it wrote to stderr (its last 4 KiB), and nothing of the arena or the server.
func (s *Service) add(ctx context.Context, name string, program io.Reader) (store.Bot, *refusal) {
	dir, err := os.MkdirTemp("", "arena-upload-")
	if err != nil {
		return store.Bot{}, internal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "program")
	if err := writeProgram(path, program); err != nil {
		return store.Bot{}, internal(err)
	}
	b, err := s.cfg.Submit(ctx, name, path)
	var smoke *ladder.SmokeError
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return b, refuse(http.StatusConflict, "this program is already the newest version of "+name)
	case errors.As(err, &smoke):
		return b, refuse(http.StatusBadRequest, smokeMessage(name, smoke))
	case err != nil:
		return b, internal(err)
	}
	return b, nil
}

// smokeMessage is what an author reads of their bot's failed smoke test.
func smokeMessage(name string, e *ladder.SmokeError) string {
	msg := fmt.Sprintf("bot %s failed its smoke test: in a game of %s its seat ended with %s; nothing was added", name, e.Game, e.Ending)
	out := strings.ToValidUTF8(strings.TrimRight(e.Stderr, "\n"), "\uFFFD")
	if out == "" {
		return msg + ". It wrote nothing to stderr."
	}
	return fmt.Sprintf("%s. What it wrote to stderr (its last %d bytes at most):\n%s", msg, ladder.SmokeStderrBytes, out)
}

func writeProgram(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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

// stderrBlocks is how many of a bot's latest blocks its stderr download covers.
const stderrBlocks = 20

// stderr sends what the author's bot wrote to stderr in its latest blocks, as an
// attachment of plain text: it is the bot's own output and never rendered as a page.
func (s *Service) stderr(w http.ResponseWriter, r *http.Request, a store.Author) {
	name := r.PathValue("name")
	if rf := s.owned(r.Context(), a, name); rf != nil {
		s.fail(w, r, rf)
		return
	}
	versions, err := s.versions(r.Context(), name)
	if err != nil {
		s.fail(w, r, internal(err))
		return
	}
	labels := map[int64]string{}
	for _, b := range versions {
		labels[b.ID] = fmt.Sprintf("%s v%d", b.Name, b.Version)
	}
	type blockDir struct {
		block int64
		dir   string
		label string
	}
	var dirs []blockDir
	seen := map[int64]bool{}
	err = s.cfg.Store.Matches(r.Context(), s.cfg.Game, func(m store.Match) error {
		for _, st := range m.Seats {
			if l, ok := labels[st.Bot]; ok && !seen[m.Block] && m.Replay != "" {
				seen[m.Block] = true
				dirs = append(dirs, blockDir{m.Block, filepath.Dir(m.Replay), l})
			}
		}
		return nil
	})
	if err != nil {
		s.fail(w, r, internal(err))
		return
	}
	dirs = dirs[max(0, len(dirs)-stderrBlocks):]
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`-stderr.txt"`)
	for _, d := range dirs {
		// The runner names the file after the entrant (its label, with '/' and
		// control characters replaced), so the label finds it.
		files, _ := filepath.Glob(filepath.Join(d.dir, "stderr-*-"+globEscape(d.label)+".log"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			fmt.Fprintf(w, "=== block %d, %s ===\n", d.block, d.label)
			w.Write(data)
			fmt.Fprintln(w)
		}
	}
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// match finds a recorded game by its ID (404 when there is none).
func (s *Service) match(ctx context.Context, idText string) (store.Match, *refusal) {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return store.Match{}, refuse(http.StatusBadRequest, "a game ID is a positive number")
	}
	var found store.Match
	stop := errors.New("found")
	err = s.cfg.Store.Matches(ctx, s.cfg.Game, func(m store.Match) error {
		if m.ID == id {
			found = m
			return stop
		}
		return nil
	})
	switch {
	case errors.Is(err, stop):
		return found, nil
	case err != nil:
		return found, internal(err)
	}
	return found, refuse(http.StatusNotFound, fmt.Sprintf("no game %d", id))
}

// replayFile sends a game's replay file to an author whose bot played in it.
func (s *Service) replayFile(w http.ResponseWriter, r *http.Request, a store.Author) {
	m, rf := s.match(r.Context(), r.PathValue("id"))
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	names, err := s.cfg.Authors.Owned(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, internal(err))
		return
	}
	bots, err := s.cfg.Store.Bots(r.Context(), true)
	if err != nil {
		s.fail(w, r, internal(err))
		return
	}
	if !playedIn(m, bots, names) {
		s.fail(w, r, refuse(http.StatusForbidden, "none of your bots played in this game"))
		return
	}
	f, rf := s.openReplay(m)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.jsonl"`, m.ID))
	io.Copy(w, f)
}

func playedIn(m store.Match, bots []store.Bot, names []string) bool {
	mine := map[int64]bool{}
	for _, b := range bots {
		for _, n := range names {
			if b.Name == n {
				mine[b.ID] = true
			}
		}
	}
	for _, st := range m.Seats {
		if mine[st.Bot] {
			return true
		}
	}
	return false
}

// openReplay opens a game's replay, which must lie in the store's directory.
func (s *Service) openReplay(m store.Match) (*os.File, *refusal) {
	root := filepath.Clean(s.cfg.Store.Dir()) + string(filepath.Separator)
	if m.Replay == "" || !strings.HasPrefix(filepath.Clean(m.Replay), root) {
		return nil, refuse(http.StatusNotFound, fmt.Sprintf("game %d has no replay", m.ID))
	}
	f, err := os.Open(m.Replay)
	if err != nil {
		return nil, refuse(http.StatusNotFound, fmt.Sprintf("game %d: its replay is gone", m.ID))
	}
	return f, nil
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
