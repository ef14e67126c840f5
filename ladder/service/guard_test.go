package service_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// slowClient is an attacker's connection that sends its request a byte at a time,
// every few seconds, for as long as the server keeps it.
type slowClient struct {
	conn   net.Conn
	mu     sync.Mutex
	closed bool
	answer string // the status line the server answered with, if any
}

// sendSlowly starts sending req on a new connection: the first n bytes at once, then
// one byte every gap.
func sendSlowly(t *testing.T, addr, req string, n int, gap time.Duration) *slowClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	c := &slowClient{conn: conn}
	_, err = conn.Write([]byte(req[:n]))
	require.NoError(t, err)
	go func() {
		for i := n; i < len(req); i++ {
			time.Sleep(gap) // the attack's pace, not a wait of the test
			if _, err := conn.Write([]byte{req[i]}); err != nil {
				return
			}
		}
	}()
	go func() {
		line, _ := bufio.NewReader(conn).ReadString('\n')
		c.mu.Lock()
		c.closed, c.answer = true, strings.TrimSpace(line)
		c.mu.Unlock()
	}()
	return c
}

func (c *slowClient) state() (bool, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed, c.answer
}

// The reproduced attack: 40 connections send POST /login a byte every 2 s, 8 of them
// stuck in the headers, 32 (as many as the request slots) in the body. Other
// users are answered within a second meanwhile, and the server cuts every slow
// sender off once its deadline passes: the headers' at HeaderTimeout, the body's when
// it falls below BodyRate after HeaderTimeout of grace (with 408).
func TestSlowClientsHoldNoSlot(t *testing.T) {
	// The slow clients must still be sending while the other users are measured: 10 s
	// of grace covers starting 40 connections and a few requests on a loaded machine.
	const grace = 10 * time.Second
	site := newSite(t, service.Limits{HeaderTimeout: grace, BodyRate: 1024})
	addr := strings.TrimPrefix(site.base, "http://")
	form := url.Values{"token": {"x"}}.Encode()
	req := fmt.Sprintf("POST /login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", addr, len(form), form)
	headers := strings.Index(req, "\r\n\r\n") + 4
	start := time.Now()
	var slow []*slowClient
	for i := range 40 {
		sent := 10 // stuck in the request line
		if i%5 != 0 {
			sent = headers + 1 // stuck in the body
		}
		slow = append(slow, sendSlowly(t, addr, req, sent, 2*time.Second))
	}

	// Other users ask, over and over for 3 s: long enough for every slow client to be
	// in (its headers read and dispatched) on a loaded machine, short of the grace.
	asks := []func() reply{
		func() reply { return do(t, "GET", site.base+"/", nil, nil) },
		func() reply { return site.login(t, site.ann, nil) },
		func() reply { return do(t, "GET", site.base+"/api/bots", nil, bearer(site.bob)) },
	}
	var worst time.Duration
	for i := 0; time.Since(start) < 3*time.Second; i++ {
		t0 := time.Now()
		r := asks[i%len(asks)]()
		took := time.Since(t0)
		require.Less(t, r.code, 400, r.body)
		require.Less(t, took, time.Second, "another user waited")
		worst = max(worst, took)
	}
	t.Logf("the slowest answer to another user during the attack: %v", worst)
	for i, c := range slow {
		closed, _ := c.state()
		require.False(t, closed && time.Since(start) < grace, "slow client %d was cut before its deadline", i)
	}
	require.Less(t, time.Since(start), grace, "the machine took longer than the slow clients' grace to serve three requests: the test proves nothing")

	// Each is cut off at its deadline, the grace plus a few bytes at 1 KiB/s; a
	// minute covers a loaded machine's scheduling.
	require.True(t, poll.Within(grace+time.Minute, func() bool {
		for _, c := range slow {
			if closed, _ := c.state(); !closed {
				return false
			}
		}
		return true
	}), "slow clients still connected")
	for i, c := range slow {
		if _, answer := c.state(); i%5 != 0 {
			assert.Equal(t, "HTTP/1.1 408 Request Timeout", answer, "a body that came too slowly")
		}
	}
}

// rawRequest sends head (request line and headers, no body) and reads the status
// line of the answer, which must come before any body is sent.
func rawRequest(t *testing.T, addr, head string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte(head))
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(time.Minute))) // a loaded machine's answer
	line, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err, "no answer before the body")
	return strings.TrimSpace(line)
}

// A declared body beyond the limit is refused (413) before any of it is read: on a
// form route, and on an upload route beyond the upload's own, larger limit; an upload
// without a valid token is refused before its body too. A body without a declared
// length is cut at the limit.
func TestOversizedBodyRefusedUpFront(t *testing.T) {
	site := newSite(t, service.Limits{Upload: 1 << 20, Body: 4 << 10})
	addr := strings.TrimPrefix(site.base, "http://")
	head := func(path, auth string, length int64) string {
		return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Type: multipart/form-data; boundary=x\r\nContent-Length: %d\r\n\r\n", path, addr, auth, length)
	}
	ann := "Authorization: Bearer " + site.ann + "\r\n"
	assert.Equal(t, "HTTP/1.1 413 Request Entity Too Large", rawRequest(t, addr, head("/login", "", 1<<30)))
	assert.Equal(t, "HTTP/1.1 413 Request Entity Too Large", rawRequest(t, addr, head("/api/bots", ann, 1<<30)))
	assert.Equal(t, "HTTP/1.1 413 Request Entity Too Large", rawRequest(t, addr, head("/api/bots/x/retire", ann, 8<<10)))
	assert.Equal(t, "HTTP/1.1 401 Unauthorized", rawRequest(t, addr, head("/api/bots", "", 512<<10)), "an upload without a token")

	// Hidden behind an io.Reader, the body's length is not declared: it goes chunked.
	r := do(t, "POST", site.base+"/login", struct{ io.Reader }{strings.NewReader(strings.Repeat("a", 8<<10))}, map[string]string{"Content-Type": "text/plain"})
	assert.Equal(t, 413, r.code, r.body)
	r = site.submit(t, site.ann, "big", strings.Repeat("x", 2<<20))
	assert.Equal(t, 413, r.code, "an upload beyond 1 MiB: %s", r.body)
	assert.Contains(t, r.body, "larger than the limit of 1 MiB")
	r = site.submit(t, site.ann, "small", "#!/bin/sh\n"+strings.Repeat("x", 512<<10))
	assert.Equal(t, 201, r.code, "an upload within its limit, beyond the forms': %s", r.body)
}

// Every post from another site's page is refused (403), the login form's included,
// whether the browser says so by Sec-Fetch-Site, Origin or only Referer; posts from
// the ladder's own pages, from an origin the operator allows, and from programs
// (no Origin, no Referer, as curl and `arena bot submit` send) go through.
func TestCrossSitePostRefused(t *testing.T) {
	site := newSite(t, service.Limits{})
	for _, h := range []map[string]string{
		{"Origin": "https://evil.example"},
		{"Origin": "null"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Referer": "https://evil.example/ladder-login.html"},
	} {
		r := site.login(t, site.ann, h)
		assert.Equal(t, 403, r.code, "%v: %s", h, r.body)
		assert.Contains(t, r.body, "cross-site request refused")
		assert.Empty(t, r.hdr.Get("Set-Cookie"), "%v: no session", h)
		r = do(t, "POST", site.base+"/api/bots/x/retire", nil, merge(bearer(site.ann), h))
		assert.Equal(t, 403, r.code, "%v, with a token: %s", h, r.body)
	}
	for _, h := range []map[string]string{
		nil,
		{"Origin": site.base, "Sec-Fetch-Site": "same-origin"},
		{"Origin": site.base},
		{"Referer": site.base + "/login"},
		{"Origin": "https://proxy.example"},
	} {
		r := site.login(t, site.ann, h)
		if h["Origin"] == "https://proxy.example" {
			assert.Equal(t, 403, r.code, "an origin not allowed yet")
			continue
		}
		assert.Equal(t, http.StatusSeeOther, r.code, "%v: %s", h, r.body)
	}

	site.cfg.Origins = []string{"https://proxy.example"}
	site.start(t)
	assert.Equal(t, http.StatusSeeOther, site.login(t, site.ann, map[string]string{"Origin": "https://proxy.example"}).code, "an allowed origin")
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{a, b} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// An internal error (here the store gone) reaches the client as a generic line with
// the request ID, on the API and on pages, the page of a bot that exists too (not a
// 404); the log has the cause under that ID.
func TestInternalErrorsStayInside(t *testing.T) {
	site := newSite(t, service.Limits{})
	cookie := map[string]string{"Cookie": site.session(t, site.ann)}
	bot, err := site.st.AddBot(ctx, store.Bot{Name: "there", SHA256: "sha-there", Builtin: "random"})
	require.NoError(t, err)
	botPage := fmt.Sprintf("%s/bots/%d", site.base, bot.ID)
	require.Equal(t, 200, do(t, "GET", botPage, nil, nil).code)
	require.NoError(t, site.st.Close())
	for _, r := range []reply{
		do(t, "GET", site.base+"/api/bots", nil, bearer(site.ann)),
		do(t, "GET", site.base+"/me", nil, cookie),
		do(t, "GET", site.base+"/games", nil, nil),
		do(t, "GET", botPage, nil, nil),
	} {
		assert.Equal(t, 500, r.code, r.body)
		id := r.hdr.Get("X-Request-Id")
		require.Len(t, id, 16)
		assert.Contains(t, r.body, "request "+id)
		for _, inside := range []string{"sql", "database", "closed"} {
			assert.NotContains(t, strings.ToLower(r.body), inside)
		}
		assert.Regexp(t, `request=`+id+` .*err="sql: database is closed"`, site.log.String(), "the cause is logged under the ID")
	}
}
