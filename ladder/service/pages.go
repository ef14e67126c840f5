package service

import (
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
)

// pages mounts the HTML pages. Everything a bot controls (its name, its stderr, the
// messages of a failed smoke test) reaches a page only through html/template's
// escaping; stderr is only ever sent as a plain-text attachment.
func (s *Service) pages(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.page("standings", s.standingsPage))
	mux.HandleFunc("GET /bots/{id}", s.page("bot", s.botPage))
	mux.HandleFunc("GET /games", s.page("games", s.gamesPage))
	mux.HandleFunc("GET /games/{id}", s.page("replay", s.replayPage))
	mux.HandleFunc("GET /login", s.page("login", func(*http.Request) (any, *refusal) { return nil, nil }))
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("GET /me", s.page("me", s.mePage(nil)))
	mux.HandleFunc("POST "+formUpload, func(w http.ResponseWriter, r *http.Request) {
		s.meAction(w, r, func(a store.Author) (string, *refusal) {
			b, rf := s.submitRequest(r, a)
			return fmt.Sprintf("added %s v%d; it plays from the next round", b.Name, b.Version), rf
		})
	})
	mux.HandleFunc("POST /me/bots/{name}/{action}", func(w http.ResponseWriter, r *http.Request) {
		s.meAction(w, r, func(a store.Author) (string, *refusal) {
			act := r.PathValue("action")
			if act != "retire" && act != "activate" {
				return "", refuse(http.StatusNotFound, "no such action")
			}
			b, rf := s.retire(r.Context(), a, r.PathValue("name"), act == "activate")
			return fmt.Sprintf("%s v%d: %sd", b.Name, b.Version, act), rf
		})
	})
	mux.HandleFunc("GET /me/bots/{name}/stderr", s.authed(s.stderr))
	mux.HandleFunc("GET /me/games/{id}/replay", s.authed(s.replayFile))
	mux.HandleFunc("GET /me/games/{id}/stderr", s.authed(s.gameStderr))
}

// page renders the template name with what fill returns, or the refusal as a page.
func (s *Service) page(name string, fill func(*http.Request) (any, *refusal)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, rf := fill(r)
		if rf != nil {
			s.errorPage(w, r, rf)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := tmpl().ExecuteTemplate(w, name, pageData{Game: s.cfg.Game, Data: data, Author: s.viewer(r)}); err != nil {
			fmt.Fprintf(w, "<p>%s</p>", template.HTMLEscapeString(s.public(r, internal(err))))
		}
	}
}

type pageData struct {
	Game string
	Data any
	// Author is the logged-in author's name, for the nav; empty for anyone else.
	Author string
}

// viewer is the name of the author whose session the browser holds. It spends none
// of the address's failed logins: showing a page is not a login, and a session ID
// (32 random bytes) cannot be guessed a page at a time.
func (s *Service) viewer(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	a, err := s.cfg.Authors.SessionAuthor(r.Context(), HashToken(c.Value))
	if err != nil {
		return ""
	}
	return a.Name
}

// errorPage shows a refusal as a page, with its status.
func (s *Service) errorPage(w http.ResponseWriter, r *http.Request, rf *refusal) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	refusalHeaders(w, r, rf)
	w.WriteHeader(rf.status)
	_ = tmpl().ExecuteTemplate(w, "error", pageData{Game: s.cfg.Game, Data: s.public(r, rf), Author: s.viewer(r)})
}

type meData struct {
	Author  store.Author
	Bots    []BotJSON
	CSRF    string
	Message string
	Limits  Limits
}

func (s *Service) mePage(msg *string) func(*http.Request) (any, *refusal) {
	return func(r *http.Request) (any, *refusal) {
		a, c, rf := s.who(r)
		if rf != nil {
			return nil, rf
		}
		bots, rf := s.mine(r.Context(), a)
		if rf != nil {
			return nil, rf
		}
		d := meData{Author: a, Bots: bots, Limits: s.cfg.Limits}
		if c.session != "" {
			d.CSRF = s.csrf(c.session)
		}
		if msg != nil {
			d.Message = *msg
		}
		return d, nil
	}
}

// meAction runs a form's action for the logged-in author and shows their page with
// its outcome; a refusal shows as an error page with its status. (The form's body,
// an upload's included, was read by guard.)
func (s *Service) meAction(w http.ResponseWriter, r *http.Request, act func(store.Author) (string, *refusal)) {
	if _, err := r.Cookie(sessionCookie); err != nil {
		s.errorPage(w, r, refuse(http.StatusUnauthorized, "log in first"))
		return
	}
	a, rf := s.author(r)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	msg, rf := act(a)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	s.page("me", s.mePage(&msg))(w, r)
}

type standingsData struct {
	Tables []tableView
	Fitted string
}

type tableView struct {
	ladder.Table
	Rows []rowView
}

type rowView struct {
	ladder.Standing
	Bar template.HTML
	// Owner is the author who submitted the bot; empty for the operator's.
	Owner string
}

func (s *Service) standingsPage(r *http.Request) (any, *refusal) {
	tables, fitted := s.standings()
	owners, err := s.cfg.Authors.Owners(r.Context())
	if err != nil {
		return nil, internal(err)
	}
	d := standingsData{}
	if !fitted.IsZero() {
		d.Fitted = fitted.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	for _, t := range tables {
		lo, hi := scale(t.Standings)
		tv := tableView{Table: t}
		for _, st := range t.Standings {
			tv.Rows = append(tv.Rows, rowView{Standing: st, Bar: intervalBar(st, lo, hi), Owner: owners[st.Bot.Name]})
		}
		d.Tables = append(d.Tables, tv)
	}
	return d, nil
}

// scale is the Elo range the interval bars of a table share.
func scale(ss []ladder.Standing) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, x := range []float64{s.Low, s.High, s.Elo} {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	if lo > hi {
		return -100, 100
	}
	pad := max((hi-lo)*0.05, 10)
	return lo - pad, hi + pad
}

// intervalBar draws a bot's 95% interval as a line and its rating as a dot; bounds
// at infinity run to the edge.
func intervalBar(s ladder.Standing, lo, hi float64) template.HTML {
	if s.Games == 0 || math.IsNaN(s.Elo) {
		return ""
	}
	const w = 240.0
	x := func(v float64) float64 {
		if math.IsInf(v, 1) || math.IsNaN(v) {
			return w
		}
		if math.IsInf(v, -1) {
			return 0
		}
		return math.Max(0, math.Min(w, (v-lo)/(hi-lo)*w))
	}
	return template.HTML(fmt.Sprintf(`<svg class="iv" width="%.0f" height="14" role="img" aria-label="95%% interval"><line x1="%.1f" y1="7" x2="%.1f" y2="7" stroke="#36c" stroke-width="3"/><circle cx="%.1f" cy="7" r="4" fill="#c30"/></svg>`,
		w, x(s.Low), x(s.High), x(s.Elo)))
}

type botData struct {
	Report ladder.BotReport
	Chart  template.HTML
	Labels map[int64]string
	Games  botForfeits
}

func (s *Service) botPage(r *http.Request) (any, *refusal) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, refuse(http.StatusBadRequest, "a bot ID is a positive number")
	}
	rep, err := s.hist.report(r.Context(), s.cfg.Game, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(http.StatusNotFound, fmt.Sprintf("no bot %d", id))
	}
	if err != nil { // the database, not the bot: a bot that exists is no 404
		return nil, internal(err)
	}
	games, rf := s.botForfeits(r.Context(), rep.Bot, rep.Endings)
	if rf != nil {
		return nil, rf
	}
	return botData{Report: rep, Chart: ratingChart(rep.History), Games: games}, nil
}
