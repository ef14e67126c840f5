package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

// The routes whose body is a bot program: they take Limits.Upload, every other
// route Limits.Body.
const (
	apiUpload  = "/api/bots"
	formUpload = "/me/submit"
)

// malformedUpload is the refusal of an upload that is not a well-formed form.
const malformedUpload = "malformed upload: send multipart/form-data with a file field \"program\" and a field \"name\""

// uploadSlack covers an upload's other form fields and its multipart framing.
const uploadSlack = 64 << 10

// Server is an http.Server of the service's handler with its header deadline and
// its idle connections bounded. Bodies get their deadlines per request (see paced):
// an upload may rightly take minutes where a login may not.
func (s *Service) Server() *http.Server {
	return &http.Server{Handler: s.Handler(), ReadHeaderTimeout: s.cfg.Limits.HeaderTimeout, IdleTimeout: time.Minute,
		MaxHeaderBytes: 64 << 10}
}

// guard gives every request an ID and the headers every answer carries, then admits
// it (origin, size, body read within its deadlines) before it takes one of the
// request slots: a client that sends slowly holds a connection of its own, never a
// slot. A burst beyond the slots gets 503 rather than exhausting the machine the
// ladder plays on.
func (s *Service) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = withRequestID(w, r)
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		w = rec
		began := time.Now()
		defer func() {
			tellRoute(r)
			s.cfg.Log.Info("request", "request", requestID(r), "addr", r.RemoteAddr, "method", r.Method,
				"path", r.URL.Path, "route", r.Pattern, "status", rec.status, "bytes", rec.bytes,
				"ms", float64(time.Since(began).Microseconds())/1000)
		}()
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		if rf := s.admit(w, r); rf != nil {
			if rf.status == http.StatusRequestEntityTooLarge || rf.status == http.StatusRequestTimeout {
				h.Set("Connection", "close") // the rest of the body is not read
			}
			s.fail(w, r, rf)
			return
		}
		select {
		case s.slots <- struct{}{}:
			release := sync.OnceFunc(func() { <-s.slots })
			defer release()
			r = r.WithContext(context.WithValue(r.Context(), slotKey{}, release))
		default:
			s.fail(w, r, refuse(http.StatusServiceUnavailable, "busy: too many requests at once, try again"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admit does what a request needs before it may take a slot: a post must come from
// the service's own pages or from a program, and its body is read whole within the
// limits; an upload's only from an author within the address's submission budget,
// so that nobody else can make the service read 64 MiB.
func (s *Service) admit(w http.ResponseWriter, r *http.Request) *refusal {
	if rf := s.sameOrigin(r); rf != nil {
		return rf
	}
	upload := r.Method == http.MethodPost && (r.URL.Path == apiUpload || r.URL.Path == formUpload)
	limit, most, what := s.cfg.Limits.Body, s.cfg.Limits.Body, "the request's body"
	if upload {
		limit, most, what = s.cfg.Limits.Upload, s.cfg.Limits.Upload+uploadSlack, "the upload"
	}
	if r.ContentLength > most {
		return tooLarge(what, limit)
	}
	if r.ContentLength == 0 {
		return nil
	}
	if upload {
		if _, _, rf := s.who(r); rf != nil {
			return rf
		}
		if wait := s.submits.take(clientKey(r)); wait > 0 {
			return tooMany(wait, fmt.Sprintf("%d submissions an hour from one address is the limit; try again later", s.cfg.Limits.AddressSubmits))
		}
	}
	r.Body = http.MaxBytesReader(w, s.paced(w, r.Body), most)
	var err error
	if upload {
		// Files above 1 MiB go to a temporary file, which the server removes when
		// the request ends.
		err = r.ParseMultipartForm(1 << 20)
	} else {
		var body []byte
		body, err = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return bodyRefusal(err, what, limit)
}

// bodyRefusal says why a body could not be read, or nil when it was.
func bodyRefusal(err error, what string, limit int64) *refusal {
	var overLimit *http.MaxBytesError
	var ne net.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &overLimit):
		return tooLarge(what, limit)
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return refuse(http.StatusRequestTimeout, what+" came too slowly; send it again at a steady pace")
	case what == "the upload":
		return refuse(http.StatusBadRequest, malformedUpload)
	}
	return refuse(http.StatusBadRequest, what+" could not be read: it ended early or was malformed")
}

// sameOrigin refuses a post that a browser sent from another site's page
// (Sec-Fetch-Site or Origin say so, or, from browsers that send neither, Referer),
// unless that origin is one of Config.Origins. A program that sends none of them,
// as `arena bot submit` and curl do, is let in: it authenticates with a bearer
// token, which no other site can make a browser send.
func (s *Service) sameOrigin(r *http.Request) *refusal {
	const msg = "cross-site request refused: this ladder takes posts only from its own pages or from programs"
	if err := s.origins.Check(r); err != nil {
		return refuse(http.StatusForbidden, msg)
	}
	if r.Method != http.MethodPost || r.Header.Get("Origin") != "" || r.Header.Get("Sec-Fetch-Site") != "" || r.Referer() == "" {
		return nil
	}
	u, err := url.Parse(r.Referer())
	if err != nil || u.Host != r.Host && !slices.Contains(s.cfg.Origins, u.Scheme+"://"+u.Host) {
		return refuse(http.StatusForbidden, msg)
	}
	return nil
}

// paced is a body read under the service's deadlines: it must start arriving within
// HeaderTimeout, keep BodyRate from then on, and end within BodyTimeout. The
// deadline is the connection's, moved before each read, so a sender that stalls is
// cut off by the network code, not by a timer of ours.
func (s *Service) paced(w http.ResponseWriter, body io.ReadCloser) io.ReadCloser {
	return &pacedBody{ReadCloser: body, rc: http.NewResponseController(w), start: time.Now(), lim: &s.cfg.Limits}
}

type pacedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	start time.Time
	n     int64
	lim   *Limits
}

func (b *pacedBody) Read(p []byte) (int, error) {
	due := b.start.Add(b.lim.HeaderTimeout + time.Duration(b.n*int64(time.Second)/b.lim.BodyRate))
	if end := b.start.Add(b.lim.BodyTimeout); due.After(end) {
		due = end
	}
	// A server without deadlines (none of the service's) reads without them.
	_ = b.rc.SetReadDeadline(due)
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

// clientKey is the address a client's budgets are kept under: its IP address, and
// for IPv6 its /64, which one machine commonly holds whole.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

type requestIDKey struct{}

// withRequestID gives the request a random ID, sent back as X-Request-Id and used in
// the log for anything the client is not told.
func withRequestID(w http.ResponseWriter, r *http.Request) *http.Request {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	w.Header().Set("X-Request-Id", id)
	return r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
}

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(requestIDKey{}).(string)
	return id
}

// public is what the client is told of a refusal: its message, or for an internal
// error a line with the request ID, under which the detail is logged.
func (s *Service) public(r *http.Request, rf *refusal) string {
	if rf.cause == nil {
		return rf.msg
	}
	id := requestID(r)
	s.cfg.Log.Error("request failed", "request", id, "method", r.Method, "path", r.URL.Path, "err", rf.cause)
	return "internal error: the ladder could not answer this request; its operator finds the cause in the log under request " + id
}

// fail answers with the refusal's status and its one line, as plain text.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, rf *refusal) {
	refusalHeaders(w, r, rf)
	http.Error(w, s.public(r, rf), rf.status)
}

// refusalHeaders says when to try again after a budget is spent, and has the browser
// drop a session cookie that let nobody in, which would spend the address's failed
// logins at every page it asked for.
func refusalHeaders(w http.ResponseWriter, r *http.Request, rf *refusal) {
	if rf.retry > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((rf.retry+time.Second-1)/time.Second)))
	}
	if _, err := r.Cookie(sessionCookie); err == nil && rf.status == http.StatusUnauthorized {
		dropSession(w)
	}
}

// statusRecorder keeps what a handler answered, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status, bytes int
	wrote         bool
}

func (w *statusRecorder) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (deadlines, flushes).
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
