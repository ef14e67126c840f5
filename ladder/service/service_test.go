package service_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

var ctx = context.Background()

// ladderSite is a service on loopback over an SQLite ladder with two authors, served
// by the http.Server the service makes (its deadlines included), as `ladder serve`
// serves it.
type ladderSite struct {
	st       *store.SQLite
	svc      *service.Service
	base     string
	ann, bob string              // their tokens
	log      *testkit.SyncBuffer // the service's log
	cfg      service.Config
}

// The programs the stand-in for `bot add` knows: one that fails its smoke test (the
// arena's account of it names a server path; the bot wrote "boom" to stderr), one
// whose adding fails on the server's side, and any other, which is added.
// startFails are programs whose start the stand-in fails, each in its way.
var startFails = map[string]protocol.StartKind{
	"#!/bin/sh\n# silent\n": protocol.StartSilent, "#!/bin/sh\n# exits\n": protocol.StartExited,
	"#!/bin/sh\n# talks on stdout\n": protocol.StartJunk, "#!/bin/sh\n# another protocol\n": protocol.StartVersion,
}

const (
	smokeFails   = "#!/bin/sh\nexit 3\n"
	serverFails  = "#!/bin/sh\n# the disk is full\n"
	serverSecret = "/srv/ladder/bots/4f2a"
)

func newSite(t *testing.T, limits service.Limits) *ladderSite {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	site := &ladderSite{st: st, log: &testkit.SyncBuffer{}}
	for _, name := range []string{"ann", "bob"} {
		token, err := service.NewToken()
		require.NoError(t, err)
		_, err = st.AddAuthor(ctx, name, service.HashToken(token))
		require.NoError(t, err)
		if name == "ann" {
			site.ann = token
		} else {
			site.bob = token
		}
	}
	site.cfg = service.Config{Store: st, Authors: st, Game: "ivanhoe", Limits: limits, Submit: site.add,
		Log: slogTo(site.log)}
	site.start(t)
	return site
}

// start serves a new Service of the site's store and config, as a restart would.
func (site *ladderSite) start(t *testing.T) {
	t.Helper()
	svc, err := service.New(site.cfg)
	require.NoError(t, err)
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = svc.Server()
	ts.Start()
	t.Cleanup(ts.Close)
	site.svc, site.base = svc, ts.URL
}

// add stands for `bot add`'s smoke test and adding.
func (site *ladderSite) add(ctx context.Context, name, path string) (store.Bot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return store.Bot{}, err
	}
	switch string(data) {
	case smokeFails:
		return store.Bot{}, &ladder.SmokeError{Game: "ivanhoe", Ending: "crash", Detail: "bot " + serverSecret + " crashed", Stderr: "boom\n"}
	case serverFails:
		return store.Bot{}, errors.New("copying " + serverSecret + ": no space left on device")
	}
	if kind, ok := startFails[string(data)]; ok {
		start := &protocol.StartError{Kind: kind, Bot: serverSecret, Err: errors.New("plugin at " + serverSecret + " failed")}
		return store.Bot{}, &ladder.SmokeError{Game: "ivanhoe", Ending: "no start", Detail: start.Error(), Start: start, Startup: 10 * time.Second}
	}
	sum := sha256.Sum256(data)
	return site.st.AddBot(ctx, store.Bot{Name: name, SHA256: hex.EncodeToString(sum[:]), Path: "bots/" + hex.EncodeToString(sum[:6])})
}

type reply struct {
	code int
	body string
	hdr  http.Header
}

// do sends a request; set adds headers (a token, an origin, a cookie).
func do(t *testing.T, method, u string, body io.Reader, set map[string]string) reply {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	for k, v := range set {
		req.Header.Set(k, v)
	}
	// No redirects followed: a login's answer is its 303 and its cookie.
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, string(b), resp.Header}
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

// login posts the login form with token, with extra headers.
func (site *ladderSite) login(t *testing.T, token string, set map[string]string) reply {
	t.Helper()
	h := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	for k, v := range set {
		h[k] = v
	}
	return do(t, "POST", site.base+"/login", strings.NewReader(url.Values{"token": {token}}.Encode()), h)
}

// session logs in with token and returns the Cookie header of the session.
func (site *ladderSite) session(t *testing.T, token string) string {
	t.Helper()
	r := site.login(t, token, nil)
	require.Equal(t, http.StatusSeeOther, r.code, r.body)
	for _, c := range (&http.Response{Header: r.hdr}).Cookies() {
		if c.Name == "arena_session" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("no session cookie in %v", r.hdr)
	return ""
}

// submit uploads a program under name with a bearer token.
func (site *ladderSite) submit(t *testing.T, token, name, program string) reply {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(t, mw.WriteField("name", name))
	part, err := mw.CreateFormFile("program", "bot")
	require.NoError(t, err)
	_, _ = part.Write([]byte(program))
	require.NoError(t, mw.Close())
	h := bearer(token)
	h["Content-Type"] = mw.FormDataContentType()
	return do(t, "POST", site.base+"/api/bots", &buf, h)
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
