package service

import (
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/watch"
)

// watch mounts the routes that step through a finished game: a page per game and point
// of view that draws its table and steps through it in the browser, the page's script,
// and the steps as JSON. Like the game page they are public: every game the ladder
// shows is over.
func (s *Service) watch(mux *routes) {
	mux.mux.HandleFunc("GET /games/{id}/watch", s.watchPage)
	mux.mux.HandleFunc("GET /watch.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(watchScript)
	})
	mux.handle("GET /api/games/{id}/steps", func(w http.ResponseWriter, r *http.Request) {
		g, rf := s.watchSteps(r)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeSteps(w, r, g)
	})
}

// watchSteps reads a game's replay once and re-simulates it from the point of view the
// query names: seat=N, or the public one when there is no seat.
func (s *Service) watchSteps(r *http.Request) (*watch.Game, *refusal) {
	m, rep, rf := s.readReplay(r)
	if rf != nil {
		return nil, rf
	}
	seat, rf := seatOf(r, rep)
	if rf != nil {
		return nil, rf
	}
	g, err := watch.Steps(rep, seat)
	if err != nil {
		return nil, internal(fmt.Errorf("game %d: %w", m.ID, err))
	}
	return g, nil
}

// readReplay reads the replay of the game the path's {id} names.
func (s *Service) readReplay(r *http.Request) (store.Match, *arena.Replay, *refusal) {
	m, rf := s.match(r.Context(), r.PathValue("id"))
	if rf != nil {
		return m, nil, rf
	}
	f, rf := s.openReplay(r.Context(), m)
	if rf != nil {
		return m, nil, rf
	}
	defer f.Close()
	rep, err := arena.ReadReplay(f)
	if err != nil {
		return m, nil, internal(fmt.Errorf("game %d: %w", m.ID, err))
	}
	return m, rep, nil
}

var (
	//go:embed watch.html
	watchSource string
	//go:embed watch.js
	watchScript []byte
	// watchTmpl is the pages' templates with the watch page's, parsed on first use. It
	// is a set of its own: html/template clones no set once it has executed, and tmpl's
	// may have served pages already.
	watchTmpl = sync.OnceValue(func() *template.Template {
		return template.Must(template.Must(template.Must(template.New("").Funcs(funcs).Parse(pagesSource)).Parse(watchSource)).Parse(liveSource + playSource))
	})
)

// watchPolicy is the pages' content policy with the page's one script, from this
// site, and its one fetch, of the steps, allowed; inline script stays forbidden.
const watchPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

type watchData struct {
	Match int64
	Game  string
	Bots  []string
	Seat  int
	Seats []int
	// Live is the stream of a game in progress (its block and rotation), shown Delay
	// late; empty for a recorded game.
	Live     string
	Block    int64
	Rotation int
	Delay    time.Duration
	// Person is a person's game (its ID), played from its page with CSRF.
	Person string
	CSRF   string
}

// watchPage is the page that steps through a game drawn; its script loads the steps.
func (s *Service) watchPage(w http.ResponseWriter, r *http.Request) {
	m, rep, rf := s.readReplay(r)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	d := watchData{Match: m.ID, Game: rep.Header.Game, Bots: rep.Header.Bots}
	if d.Seat, rf = seatOf(r, rep); rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	for i := range rep.Header.Players {
		d.Seats = append(d.Seats, i)
	}
	s.renderWatch(w, r, "watch", d)
}

// renderWatch renders a page of the watch set (the watch page, the live list) with
// the watch page's content policy.
func (s *Service) renderWatch(w http.ResponseWriter, r *http.Request, name string, d any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", watchPolicy)
	if err := watchTmpl().ExecuteTemplate(w, name, pageData{Game: s.cfg.Game, Data: d, Author: s.viewer(r)}); err != nil {
		fmt.Fprintf(w, "<p>%s</p>", template.HTMLEscapeString(s.public(r, internal(err))))
	}
}

// seatOf is the point of view the query names: seat=N, or the public one without.
func seatOf(r *http.Request, rep *arena.Replay) (int, *refusal) {
	v := r.URL.Query().Get("seat")
	if v == "" {
		return watch.Public, nil
	}
	seat, err := strconv.Atoi(v)
	if err != nil || seat < 0 || seat >= rep.Header.Players {
		return 0, refuse(http.StatusBadRequest, fmt.Sprintf("seat is 0 to %d, or absent for the public view", rep.Header.Players-1))
	}
	return seat, nil
}

// writeSteps sends a game's steps as JSON, compressed when the client takes gzip: a
// drawing per step makes a game's steps megabytes of text that compress about tenfold
// (a five-player Kardinal game: 6 MB, 0.6 MB compressed).
func writeSteps(w http.ResponseWriter, r *http.Request, g *watch.Game) {
	w.Header().Set("Vary", "Accept-Encoding")
	if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		writeJSON(w, http.StatusOK, g)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Encoding", "gzip")
	z := gzip.NewWriter(w)
	_ = json.NewEncoder(z).Encode(g)
	_ = z.Close()
}
