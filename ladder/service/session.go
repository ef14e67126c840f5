package service

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/arena-games/arena/ladder/store"
)

// sessionCookie holds a browser's session ID: random, never the author's token, so
// that the token is typed once and a stolen cookie dies with its session.
const sessionCookie = "arena_session"

// credential is what a request shows of its author: a bearer token or a session ID.
type credential struct {
	token, session string
}

// credentials reads a request's credential from its headers alone.
func credentials(r *http.Request) (credential, *refusal) {
	if h := r.Header.Get("Authorization"); h != "" {
		t, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || t == "" {
			return credential{}, refuse(http.StatusUnauthorized, "malformed Authorization header: send Authorization: Bearer TOKEN")
		}
		return credential{token: t}, nil
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		return credential{session: c.Value}, nil
	}
	return credential{}, refuse(http.StatusUnauthorized, "this needs an author's token: log in, or send Authorization: Bearer TOKEN")
}

// who finds the author of a request from its headers alone. A credential that lets
// nobody in spends one of the address's failed logins; an address that has spent
// them all is refused before its credential is looked at.
func (s *Service) who(r *http.Request) (store.Author, credential, *refusal) {
	c, rf := credentials(r)
	if rf != nil {
		return store.Author{}, c, rf
	}
	var a store.Author
	var err error
	rf = s.checked(r, func() error {
		if c.token != "" {
			a, err = s.cfg.Authors.AuthorByToken(r.Context(), HashToken(c.token))
		} else {
			a, err = s.cfg.Authors.SessionAuthor(r.Context(), HashToken(c.session))
		}
		return err
	})
	if rf != nil && c.session != "" && rf.status == http.StatusUnauthorized {
		rf.msg = "your session has ended (logged out, expired, or your token was rotated): log in again"
	}
	return a, c, rf
}

// checked runs a credential's look-up under the address's budget of failures: 429
// once it is spent, 401 for a credential that lets nobody in, which spends one.
// Good credentials spend nothing, however many come at once.
func (s *Service) checked(r *http.Request, lookup func() error) *refusal {
	key := clientKey(r)
	if wait := s.failures.wait(key); wait > 0 {
		return tooMany(wait, "too many failed logins from your address; try again later")
	}
	switch err := lookup(); {
	case errors.Is(err, store.ErrNotFound):
		s.failures.spend(key)
		return refuse(http.StatusUnauthorized, "the token is not valid (mistyped, rotated or revoked)")
	case err != nil:
		return internal(err)
	}
	return nil
}

// author finds who sent the request. A bearer token needs no CSRF token (browsers
// never add one by themselves); a session does on every request that changes state.
func (s *Service) author(r *http.Request) (store.Author, *refusal) {
	a, c, rf := s.who(r)
	if rf != nil {
		return a, rf
	}
	if c.session != "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !hmac.Equal([]byte(r.FormValue("csrf")), []byte(s.csrf(c.session))) {
			return a, refuse(http.StatusForbidden, "the form's CSRF token is missing or wrong: reload the page and try again")
		}
	}
	return a, nil
}

// csrf is the form token of a session: tied to the session and to this process's
// key, so it cannot be guessed from outside. (After a restart the session holds and
// a form of the page before is refused once; reloading the page mends it.)
func (s *Service) csrf(session string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte(HashToken(session)))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// login trades a token for a new session, and ends the session the browser held.
func (s *Service) login(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimSpace(r.FormValue("token"))
	if token == "" {
		s.errorPage(w, r, refuse(http.StatusUnauthorized, "enter the token the ladder's operator gave you"))
		return
	}
	var a store.Author
	rf := s.checked(r, func() (err error) {
		a, err = s.cfg.Authors.AuthorByToken(r.Context(), HashToken(token))
		return err
	})
	if rf == nil {
		s.endSession(r)
		rf = s.startSession(w, r, a)
	}
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	http.Redirect(w, r, "/me", http.StatusSeeOther)
}

// startSession keeps a new session of a in the store and gives its ID to the browser.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, a store.Author) *refusal {
	id, err := NewToken()
	if err != nil {
		return internal(err)
	}
	expires := time.Now().Add(s.cfg.Limits.Session)
	if err := s.cfg.Authors.StartSession(r.Context(), HashToken(id), a.ID, expires); err != nil {
		return internal(err)
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", Expires: expires, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	return nil
}

// logout ends the browser's session in the store, not just its cookie.
func (s *Service) logout(w http.ResponseWriter, r *http.Request) {
	if rf := s.endSession(r); rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	dropSession(w)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// dropSession has the browser forget its session cookie.
func dropSession(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

func (s *Service) endSession(r *http.Request) *refusal {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	if err := s.cfg.Authors.EndSession(r.Context(), HashToken(c.Value)); err != nil {
		return internal(err)
	}
	return nil
}
