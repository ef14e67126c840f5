// Package service serves a ladder over HTTP: public pages (standings with intervals,
// a page per bot, recent games, a replay viewer) and, for authors holding a token, the
// submission, retirement and reactivation of their own bots and the download of their
// own bots' stderr and match logs. It works through store.Store and store.Authors only,
// so any store that implements both can back it.
//
// Authors authenticate with "Authorization: Bearer TOKEN" (the API, `arena bot
// submit`) or with the token kept in an HttpOnly, SameSite=Strict cookie after the
// login form; every form post made with the cookie carries a CSRF token derived from
// the author's token, so another site cannot post on an author's behalf.
package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
)

// Limits bound what one author may do.
type Limits struct {
	// Upload is the largest bot program accepted, in bytes.
	Upload int64
	// PerDay is the number of submissions an author may make in 24 hours.
	PerDay int
	// Bots is the number of bot names an author may own.
	Bots int
	// Concurrent is the number of requests served at once; more get 503.
	Concurrent int
}

// DefaultLimits are the limits unless the operator sets others.
var DefaultLimits = Limits{Upload: 64 << 20, PerDay: 20, Bots: 5, Concurrent: 32}

// Config is what a Service needs.
type Config struct {
	Store   store.Store
	Authors store.Authors
	// Game is the ladder's game (or variant) the pages show.
	Game string
	// Submit adds the program at path as the next version of name, through the same
	// smoke test and sandbox as `arena bot add`.
	Submit func(ctx context.Context, name, path string) (store.Bot, error)
	// Changed is told when the set of active bots changed.
	Changed func()
	Limits  Limits
}

// Service is the ladder's HTTP side.
type Service struct {
	cfg     Config
	csrfKey []byte
	submit  sync.Mutex // one smoke test at a time: they start bot processes
	slots   chan struct{}

	mu     sync.Mutex
	tables []ladder.Table
	fitted time.Time
}

// New makes a service; call Refit to fill the standings.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Authors == nil || cfg.Submit == nil {
		return nil, errors.New("a ladder service needs a store, its authors and a way to add bots")
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits
	}
	if cfg.Changed == nil {
		cfg.Changed = func() {}
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, csrfKey: key, slots: make(chan struct{}, max(cfg.Limits.Concurrent, 1))}, nil
}

// Refit recomputes the standings the pages show (the official fit with its intervals).
func (s *Service) Refit(ctx context.Context) error {
	t, err := ladder.Standings(ctx, s.cfg.Store, s.cfg.Game, ladder.StandingsOptions{Retired: true})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.tables, s.fitted = t, time.Now()
	s.mu.Unlock()
	return nil
}

func (s *Service) standings() ([]ladder.Table, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables, s.fitted
}

// NewToken makes an author's token: 32 random bytes, URL-safe base64.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// HashToken is what the store keeps of a token.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// refusal is a request turned down: one message and its HTTP status.
type refusal struct {
	status int
	msg    string
}

func (r *refusal) Error() string { return r.msg }

func refuse(status int, msg string) *refusal { return &refusal{status, msg} }

const cookieName = "arena_token"

// author finds who sent the request. A bearer token needs no CSRF token (browsers
// never add one by themselves); a cookie does on every request that changes state.
func (s *Service) author(r *http.Request) (store.Author, *refusal) {
	token, viaCookie := "", false
	if h := r.Header.Get("Authorization"); h != "" {
		t, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || t == "" {
			return store.Author{}, refuse(http.StatusUnauthorized, "malformed Authorization header: send Authorization: Bearer TOKEN")
		}
		token = t
	} else if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		token, viaCookie = c.Value, true
	}
	if token == "" {
		return store.Author{}, refuse(http.StatusUnauthorized, "this needs an author's token: log in, or send Authorization: Bearer TOKEN")
	}
	a, err := s.cfg.Authors.AuthorByToken(r.Context(), HashToken(token))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return a, refuse(http.StatusUnauthorized, "the token is not valid (mistyped or revoked)")
		}
		return a, refuse(http.StatusInternalServerError, "reading authors: "+err.Error())
	}
	if viaCookie && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !hmac.Equal([]byte(r.FormValue("csrf")), []byte(s.csrf(token))) {
			return a, refuse(http.StatusForbidden, "the form's CSRF token is missing or wrong: reload the page and try again")
		}
	}
	return a, nil
}

// csrf is the form token of a session: tied to the author's token and to this
// process's key, so it cannot be guessed from outside.
func (s *Service) csrf(token string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte(HashToken(token)))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// botName is what a submitted bot may be called: it shows in pages, logs and file
// names, so no path separators, dots first, spaces or markup.
var botName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$`)

func checkName(name string) *refusal {
	if !botName.MatchString(name) {
		return refuse(http.StatusBadRequest, "a bot name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	return nil
}

// owned checks that a's token may act on bot name: 404 for no such bot, 403 for
// someone else's.
func (s *Service) owned(ctx context.Context, a store.Author, name string) *refusal {
	if r := checkName(name); r != nil {
		return r
	}
	owner, ok, err := s.cfg.Authors.Owner(ctx, name)
	if err != nil {
		return refuse(http.StatusInternalServerError, err.Error())
	}
	bots, err := s.versions(ctx, name)
	if err != nil {
		return refuse(http.StatusInternalServerError, err.Error())
	}
	if len(bots) == 0 {
		return refuse(http.StatusNotFound, "no bot named "+name)
	}
	if !ok || owner != a.ID {
		return refuse(http.StatusForbidden, "bot "+name+" is not yours")
	}
	return nil
}

// versions lists every version of a bot name.
func (s *Service) versions(ctx context.Context, name string) ([]store.Bot, error) {
	all, err := s.cfg.Store.Bots(ctx, true)
	if err != nil {
		return nil, err
	}
	var out []store.Bot
	for _, b := range all {
		if b.Name == name {
			out = append(out, b)
		}
	}
	return out, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	s.pages(mux)
	s.api(mux)
	return s.guard(mux)
}

// guard bounds the requests served at once (a burst gets 503 rather than exhausting
// the machine the ladder plays on) and sets the headers every answer carries.
func (s *Service) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		default:
			http.Error(w, "busy: too many requests at once, try again", http.StatusServiceUnavailable)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
