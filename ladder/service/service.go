// Package service serves a ladder over HTTP: public pages (standings with intervals,
// a page per bot, recent games, a replay viewer) and, for authors holding a token, the
// submission, retirement and reactivation of their own bots and the download of their
// own bots' stderr and match logs. It works through store.Store and store.Authors only,
// so any store that implements both can back it.
//
// Authors authenticate with "Authorization: Bearer TOKEN" (the API, `arena bot
// submit`) or with a session: the login form trades the token for a random session ID
// in an HttpOnly, SameSite=Strict cookie, kept in the store (as its hash) until it
// expires, the author logs out, or their token is rotated. Every post from another
// site is refused, and every form post made with the cookie carries a CSRF token
// derived from the session, so another site cannot post on an author's behalf.
//
// What reaches the service from outside is bounded before it costs a request slot:
// deadlines for headers and bodies and a minimum body rate, a declared body too large
// refused before it is read, and per-address budgets of failed logins and of
// submissions (see Limits and guard.go).
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// Limits bound what one author, one address and one request may do.
type Limits struct {
	// Upload is the largest bot program accepted, in bytes.
	Upload int64
	// PerDay is the number of submissions an author may make in 24 hours.
	PerDay int
	// Bots is the number of bot names an author may own.
	Bots int
	// Concurrent is the number of requests served at once; more get 503. A request
	// takes its slot only once its headers and body are read.
	Concurrent int
	// Body is the largest body of any request but an upload (a login, a form), in
	// bytes; a larger declared Content-Length is refused before anything is read.
	Body int64
	// HeaderTimeout bounds the reading of a request's headers. A body gets as long
	// to start arriving.
	HeaderTimeout time.Duration
	// BodyRate is the slowest a body may arrive, in bytes per second, once its
	// HeaderTimeout of grace has passed.
	BodyRate int64
	// BodyTimeout bounds the reading of a whole body, an upload's included.
	BodyTimeout time.Duration
	// LoginFailures is the number of failed logins (a wrong token, by the form or
	// the API, or a session that is gone) an address may make at once; they are
	// given back at that many an hour.
	LoginFailures int
	// AddressSubmits is the number of submissions an address may make at once;
	// they are given back at that many an hour.
	AddressSubmits int
	// Session is how long a login lasts.
	Session time.Duration
	// Streams is the number of live games watched at once (server-sent event
	// streams, which hold no request slot); more get 503.
	Streams int
	// PersonGames is the number of games one author may play in the browser at once.
	PersonGames int
}

// DefaultLimits are the limits unless the operator sets others.
func DefaultLimits() Limits {
	return Limits{Upload: 64 << 20, PerDay: 20, Bots: 5, Concurrent: 32, Body: 64 << 10,
		HeaderTimeout: 10 * time.Second, BodyRate: 16 << 10, BodyTimeout: 10 * time.Minute,
		LoginFailures: 20, AddressSubmits: 30, Session: 7 * 24 * time.Hour, Streams: 64, PersonGames: 2}
}

// withDefaults fills the limits left zero from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.Upload, l.Body, l.BodyRate = orDefault(l.Upload, d.Upload), orDefault(l.Body, d.Body), orDefault(l.BodyRate, d.BodyRate)
	l.PerDay, l.Bots, l.Concurrent = orDefault(l.PerDay, d.PerDay), orDefault(l.Bots, d.Bots), orDefault(l.Concurrent, d.Concurrent)
	l.LoginFailures, l.AddressSubmits = orDefault(l.LoginFailures, d.LoginFailures), orDefault(l.AddressSubmits, d.AddressSubmits)
	l.HeaderTimeout, l.BodyTimeout = orDefault(l.HeaderTimeout, d.HeaderTimeout), orDefault(l.BodyTimeout, d.BodyTimeout)
	l.Session, l.Streams = orDefault(l.Session, d.Session), orDefault(l.Streams, d.Streams)
	l.PersonGames = orDefault(l.PersonGames, d.PersonGames)
	return l
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Config is what a Service needs.
type Config struct {
	Store   store.Store
	Authors store.Authors
	// Game is the ladder's game (or variant) the pages show.
	Game string
	// Submit adds the program at path as the next version of name, through the same
	// smoke test and sandbox as `arena bot add`. A failed smoke test is a
	// *ladder.SmokeError; any other error is the service's, not the author's.
	Submit func(ctx context.Context, name, path string) (store.Bot, error)
	// Changed is told when the set of active bots changed.
	Changed func()
	Limits  Limits
	// Origins are origins besides the service's own (scheme://host[:port]) whose
	// pages may post to it: a proxy's public address when it rewrites Host.
	Origins []string
	// Replays is the folder the ladder's runner writes replays under (a game in
	// progress is its temporary replay there): the service shows those games live.
	// Empty shows none.
	Replays string
	// LiveDelay holds every move of a live game back this long before it is shown.
	LiveDelay time.Duration
	// Launch, when set, starts a ladder bot for a person's game in the browser,
	// sandboxed as the ladder's bots are, and Clock is their clock there; nil offers
	// no such games. GameOptions are the ladder's game's options (a board...).
	Launch      func(store.Bot) (protocol.LaunchConfig, error)
	Clock       arena.Clock
	GameOptions engine.Options
	// LockHeld, when set, fails once the ladder's run lock is lost (a server
	// database's lock goes with a dropped connection); /readyz says so.
	LockHeld func(ctx context.Context) error
	// Log receives what clients are not told: the detail of an internal error, under
	// the request ID the client was given (default: discarded).
	Log *slog.Logger
}

// Service is the ladder's HTTP side.
type Service struct {
	cfg     Config
	csrfKey []byte
	submit  sync.Mutex // one smoke test at a time: they start bot processes
	slots   chan struct{}
	// streams are the slots of live games' event streams (made with the handler).
	streams chan struct{}
	people  people
	feeds   feeds
	origins *http.CrossOriginProtection
	// failures and submits are per-address budgets of failed logins and of
	// submissions.
	failures, submits *buckets

	hist   *history
	mu     sync.Mutex
	tables []ladder.Table
	fitted time.Time
	// apiRoutes are the patterns the API mounted.
	apiRoutes []string
}

// New makes a service; call Refit to fill the standings.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Authors == nil || cfg.Submit == nil {
		return nil, errors.New("a ladder service needs a store, its authors and a way to add bots")
	}
	cfg.Limits = cfg.Limits.withDefaults()
	if cfg.Changed == nil {
		cfg.Changed = func() {}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	origins := http.NewCrossOriginProtection()
	for _, o := range cfg.Origins {
		if err := origins.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("allowed origin %q: %w", o, err)
		}
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	l := cfg.Limits
	return &Service{cfg: cfg, csrfKey: key, hist: newHistory(cfg.Store, cfg.Game), slots: make(chan struct{}, l.Concurrent), origins: origins,
		failures: newBuckets(l.LoginFailures, time.Hour), submits: newBuckets(l.AddressSubmits, time.Hour)}, nil
}

// Refit recomputes the standings the pages show (the official fit with its intervals)
// from the running aggregates, caught up first with the games recorded since.
func (s *Service) Refit(ctx context.Context) error {
	t, err := s.hist.refresh(ctx, s.cfg.Store, s.cfg.Game)
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

// refusal is a request turned down: one message and its HTTP status, or, for an
// internal error, its cause, which is logged and never shown (see Service.public).
type refusal struct {
	status int
	msg    string
	cause  error
	// retry, when set, is sent as Retry-After.
	retry time.Duration
}

func (r *refusal) Error() string { return r.msg }

func refuse(status int, msg string) *refusal { return &refusal{status: status, msg: msg} }

// internal is a failure of the service itself (its store, its disk): the client gets
// a request ID, the log gets err.
func internal(err error) *refusal {
	return &refusal{status: http.StatusInternalServerError, cause: err}
}

// tooMany is a refusal for a budget spent, with when to try again.
func tooMany(wait time.Duration, msg string) *refusal {
	return &refusal{status: http.StatusTooManyRequests, msg: msg, retry: wait}
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
		return internal(err)
	}
	bots, err := s.versions(ctx, name)
	if err != nil {
		return internal(err)
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
	mux := &routes{mux: http.NewServeMux()}
	s.pages(mux.mux)
	s.api(mux)
	s.watch(mux)
	s.liveRoutes(mux)
	s.personRoutes(mux.mux)
	s.health(mux.mux)
	s.mu.Lock()
	s.apiRoutes = mux.patterns
	if s.streams == nil {
		s.streams = make(chan struct{}, s.cfg.Limits.Streams)
	}
	s.mu.Unlock()
	return s.guard(mux.mux)
}

// routes mounts handlers and remembers their patterns, so that a test holds the
// OpenAPI document to the routes that exist.
type routes struct {
	mux      *http.ServeMux
	patterns []string
}

func (rt *routes) handle(pattern string, h http.HandlerFunc) {
	rt.mux.HandleFunc(pattern, h)
	rt.patterns = append(rt.patterns, pattern)
}
