package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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

// served is a `ladder serve` process of a test, and the address it serves on.
type served struct {
	*proc
	base string
}

var servingOn = regexp.MustCompile(`serving the \S+ ladder on (http://\S+)/`)

// startServe starts `arena ladder serve` on a free loopback port and waits (up to a
// deadline that covers a loaded machine starting a binary) until it serves.
func startServe(t *testing.T, dir, db string, extra ...string) *served {
	t.Helper()
	args := append([]string{"ladder", "serve", "--game", "ivanhoe", "--players", "2", "--addr", "127.0.0.1:0", "--db", db, "--refresh", "1s"}, extra...)
	s := &served{proc: startProc(t, dir, "", args...)}
	require.True(t, poll.Within(time.Minute, func() bool {
		if m := servingOn.FindStringSubmatch(s.text()); m != nil {
			s.base = m[1]
		}
		return s.base != "" || s.exited()
	}), "ladder serve did not start: %s", s.text())
	require.NotEmpty(t, s.base, "ladder serve exited: %s", s.text())
	return s
}

// stop sends SIGTERM and waits for a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	s.proc.stop(t, "serving the")
	assert.Contains(t, s.text(), "stopped;")
}

type reply struct {
	code int
	body string
	hdr  http.Header
}

// call sends a request with a bearer token (none when empty).
func call(t *testing.T, c *http.Client, method, u, token, ctype string, body io.Reader) reply {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, string(b), resp.Header}
}

// upload is a multipart body with a name field and a program file.
func upload(t *testing.T, name string, program []byte, extra map[string]string) (string, io.Reader) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(t, mw.WriteField("name", name))
	for k, v := range extra {
		require.NoError(t, mw.WriteField(k, v))
	}
	part, err := mw.CreateFormFile("program", "bot")
	require.NoError(t, err)
	_, _ = part.Write(program)
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), &buf
}

// newLadder makes a ladder with the two built-in bots and two authors, and returns
// their tokens.
func newLadder(t *testing.T) (dir, db, ann, bob string) {
	t.Helper()
	dir, err := os.MkdirTemp(bin, "serve-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	db = filepath.Join(dir, "data", "ladder.db")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	tokens := map[string]string{}
	for _, a := range []string{"ann", "bob"} {
		r := runArena(t, dir, "author", "add", a, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
		tokens[a] = strings.TrimSpace(r.stdout)
		require.Len(t, tokens[a], 43, "32 random bytes in URL-safe base64")
	}
	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	_, err = st.AuthorByToken(context.Background(), tokens["ann"])
	assert.Error(t, err, "the store keeps no token in the clear")
	return dir, db, tokens["ann"], tokens["bob"]
}

// standingOf polls the API's standings (which refit every second) until bot has
// played games, up to a deadline for a loaded machine.
func waitForGames(t *testing.T, s *served, bot string, atLeast int) standingJSONAPI {
	t.Helper()
	base := s.base
	deadline := time.Now().Add(90 * time.Second) // a few 2-player Ivanhoe blocks; seconds when idle
	for time.Now().Before(deadline) {
		r := call(t, nil, "GET", base+"/api/standings", "", "", nil)
		var tables []service.TableJSON
		if r.code == 200 && json.Unmarshal([]byte(r.body), &tables) == nil {
			for _, tb := range tables {
				for _, s := range tb.Standings {
					if s.Bot.Name == bot && s.Games >= atLeast {
						return s
					}
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s played fewer than %d games in time; the service's log:\n%s", bot, atLeast, s.text())
	return standingJSONAPI{}
}

type standingJSONAPI = service.StandingJSON

// The end-to-end: an author submits a bot from another shell with a token, it
// plays, the pages show its rating with an interval, its replay steps through, and
// only its author reads its stderr; SIGTERM stops the service and a restart resumes.
func TestServeAnAuthorSubmitsAndWatches(t *testing.T) {
	dir, db, ann, bob := newLadder(t)
	s := startServe(t, dir, db)

	r := runArena(t, dir, "bot", "submit", "--server", s.base, "--token", ann, filepath.Join(bin, "noisybot"), "--name", "annbot")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"name":"annbot"`)
	r = runArena(t, dir, "bot", "submit", "--server", s.base, "--token", "wrong", filepath.Join(bin, "noisybot"), "--name", "x")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "401")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one error line: %s", r.stderr)

	st := waitForGames(t, s, "annbot", 4)
	page := call(t, nil, "GET", s.base+"/", "", "", nil)
	require.Equal(t, 200, page.code)
	assert.Contains(t, page.body, "annbot v1")
	assert.Contains(t, page.body, `<line x1=`, "the interval is drawn")
	bot := call(t, nil, "GET", fmt.Sprintf("%s/bots/%d", s.base, st.Bot.ID), "", "", nil)
	require.Equal(t, 200, bot.code, bot.body)
	assert.Contains(t, bot.body, "<polygon", "the rating's band over time")
	// Tables are drawn at random: annbot may have met either bot so far.
	assert.Regexp(t, `(heuristic|random) v1</a></td><td>\d+</td><td>[\d.]+%`, bot.body, "the score against an opponent")
	assert.Regexp(t, `<td>ok</td><td><a href="/games\?bot=annbot&amp;ending=ok&amp;version=1">\d+</a></td>`, bot.body, "the endings, each linked to its games")

	games := call(t, nil, "GET", s.base+"/games", "", "", nil)
	require.Equal(t, 200, games.code)
	id := regexp.MustCompile(`href="/games/(\d+)"`).FindStringSubmatch(games.body)
	require.NotNil(t, id, games.body)
	all := call(t, nil, "GET", s.base+"/games/"+id[1]+"?seat=all&step=1", "", "", nil)
	require.Equal(t, 200, all.code, all.body)
	assert.Contains(t, all.body, `class="chosen"`, "the options and the choice")
	assert.Contains(t, all.body, "ms</h3>", "the decision's time")
	assert.NotContains(t, all.body, "(hidden)")
	seat := call(t, nil, "GET", s.base+"/games/"+id[1]+"?seat=0&step=1", "", "", nil)
	require.Equal(t, 200, seat.code)
	assert.Contains(t, seat.body, "hidden", "seat 0 does not see seat 1's choices")
	last := regexp.MustCompile(`id="last" href="\?seat=0&(?:amp;)?step=(\d+)"`).FindStringSubmatch(seat.body)
	require.NotNil(t, last, seat.body)
	end := call(t, nil, "GET", s.base+"/games/"+id[1]+"?seat=0&step="+last[1], "", "", nil)
	assert.Contains(t, end.body, `id="result"`)

	// Only annbot's author reads its stderr; what the bot wrote is plain text.
	errs := call(t, nil, "GET", s.base+"/api/bots/annbot/stderr", ann, "", nil)
	require.Equal(t, 200, errs.code)
	assert.Contains(t, errs.body, `<script>alert("stderr")</script>`)
	assert.True(t, strings.HasPrefix(errs.hdr.Get("Content-Type"), "text/plain"))
	assert.Equal(t, "nosniff", errs.hdr.Get("X-Content-Type-Options"))
	assert.Contains(t, errs.hdr.Get("Content-Disposition"), "attachment")
	assert.Equal(t, 403, call(t, nil, "GET", s.base+"/api/bots/annbot/stderr", bob, "", nil).code)

	s.stop(t)
	requireNoLeftovers(t)
	s2 := startServe(t, dir, db)
	waitForGames(t, s2, "annbot", st.Games+4)
	s2.stop(t)
	stt, err := store.Open(db)
	require.NoError(t, err)
	defer stt.Close()
	countGames(t, stt) // fails on a game recorded twice
}

// Every route refuses what it should, with one line and a fitting status: no token,
// a wrong token, another author's token, oversized and malformed uploads, names that
// try paths or markup, form posts without their CSRF token, and the limits.
func TestServeRefusesWhatItShould(t *testing.T) {
	dir, db, ann, bob := newLadder(t)
	// The upload limit holds the test's Go bot (19 MiB) below it.
	s := startServe(t, dir, db, "--upload-limit", "24", "--submissions-per-day", "6", "--bots-per-author", "1")
	// No token, a wrong one, a malformed header: 401 on every author route.
	routes := []struct{ method, path string }{
		{"GET", "/api/bots"}, {"POST", "/api/bots"}, {"POST", "/api/bots/random/retire"},
		{"POST", "/api/bots/random/activate"}, {"GET", "/api/bots/random/stderr"}, {"GET", "/api/games/1/replay"},
		{"GET", "/me"}, {"GET", "/me/bots/random/stderr"}, {"GET", "/me/games/1/replay"},
	}
	for _, rt := range routes {
		for _, tok := range []string{"", "wrong-token"} {
			r := call(t, nil, rt.method, s.base+rt.path, tok, "", nil)
			assert.Equal(t, 401, r.code, "%s %s token %q: %s", rt.method, rt.path, tok, r.body)
			if rt.path != "/me" {
				assert.Equal(t, 1, strings.Count(r.body, "\n"), "one line: %q", r.body)
			} else {
				assert.Contains(t, r.body, `id="error"`, "an error page")
			}
		}
	}
	req, _ := http.NewRequest("GET", s.base+"/api/bots", nil)
	req.Header.Set("Authorization", "Basic abc")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 401, resp.StatusCode)

	// Too large (the limit is 24 MiB) and malformed uploads.
	ct, body := upload(t, "big", bytes.Repeat([]byte{0x7f}, 25<<20), nil)
	r := call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
	assert.Equal(t, 413, r.code, r.body)
	r = call(t, nil, "POST", s.base+"/api/bots", ann, "application/json", strings.NewReader(`{"name":"x"}`))
	assert.Equal(t, 400, r.code, r.body)
	r = call(t, nil, "POST", s.base+"/api/bots", ann, "multipart/form-data; boundary=zz", strings.NewReader("--zz\r\ngarbage"))
	assert.Equal(t, 400, r.code, r.body)

	// Names that try paths or markup are refused before anything is stored.
	for _, name := range []string{"../evil", "a/b", ".hidden", "<b>x</b>", "", strings.Repeat("n", 41), "a b", "x\x00y"} {
		ct, body := upload(t, name, []byte("#!/bin/sh\n"), nil)
		r := call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
		assert.Equal(t, 400, r.code, "name %q: %s", name, r.body)
	}
	for _, p := range []string{"/api/bots/..%2f..%2fetc/stderr", "/api/bots/%3Cscript%3E/stderr"} {
		assert.Equal(t, 400, call(t, nil, "GET", s.base+p, ann, "", nil).code, p)
	}

	// A program that is not a bot fails its smoke test: 400, and the message carries
	// what the program wrote (escaped on the form's page) and nothing of the server:
	// not the arena's account of the failure, which names the program's path.
	script := []byte("#!/bin/sh\necho '<script>alert(\"smoke\")</script>' >&2\nexit 3\n")
	ct, body = upload(t, "annbot", script, nil)
	r = call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
	assert.Equal(t, 400, r.code, r.body)
	assert.Contains(t, r.body, "bot annbot failed its smoke test: it exited before its go-plugin handshake: a bot keeps running in ServeMatches (Go) or arena_bot.serve (Python) until the arena stops it")
	assert.Contains(t, r.body, "\n<script>alert(\"smoke\")</script>\n", "the bot's stderr")
	for _, server := range []string{dir, "/tmp/", "/bots/", "Unrecognized remote plugin message", "exec format error"} {
		assert.NotContains(t, r.body, server)
	}
	// A file that cannot run is told what it is, before any sandbox starts it.
	for program, says := range map[string]string{
		"\xcf\xfa\xed\xfe\x07\x00\x00\x01\x03\x00\x00\x00": "(this is a Mach-O executable, for macOS: build with GOOS=linux GOARCH=amd64)",
		"print('a bot')\n": "(this is a script without a #! line",
	} {
		ct, body = upload(t, "annbot", []byte(program), nil)
		r = call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
		assert.Equal(t, 400, r.code, r.body)
		assert.Contains(t, r.body, "bot annbot was not added: the program is not a Linux amd64 executable "+says)
		assert.NotContains(t, r.body, dir)
	}

	// Operator's bots and other authors' bots are not one's own.
	for _, p := range []string{"/api/bots/random/retire", "/api/bots/random/activate", "/api/bots/random/stderr"} {
		method := "POST"
		if strings.HasSuffix(p, "stderr") {
			method = "GET"
		}
		assert.Equal(t, 403, call(t, nil, method, s.base+p, bob, "", nil).code, p)
	}
	assert.Equal(t, 404, call(t, nil, "POST", s.base+"/api/bots/nobody/retire", bob, "", nil).code)
	assert.Equal(t, 404, call(t, nil, "GET", s.base+"/api/games/999999/replay", bob, "", nil).code)
	assert.Equal(t, 400, call(t, nil, "GET", s.base+"/api/games/abc/replay", bob, "", nil).code)

	// The browser's way: log in, then a form post without its CSRF token is refused.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	r = call(t, browser, "POST", s.base+"/login", "", "application/x-www-form-urlencoded", strings.NewReader(url.Values{"token": {ann}}.Encode()))
	require.Equal(t, 200, r.code, r.body)
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(r.body)
	require.NotNil(t, csrf, r.body)
	ct, body = upload(t, "annbot", script, nil)
	r = call(t, browser, "POST", s.base+"/me/submit", "", ct, body)
	assert.Equal(t, 403, r.code, "no CSRF token: %s", r.body)
	ct, body = upload(t, "annbot", script, map[string]string{"csrf": "0123456789abcdef0123456789abcdef"})
	r = call(t, browser, "POST", s.base+"/me/submit", "", ct, body)
	assert.Equal(t, 403, r.code, "a wrong CSRF token: %s", r.body)
	ct, body = upload(t, "annbot", script, map[string]string{"csrf": csrf[1]})
	r = call(t, browser, "POST", s.base+"/me/submit", "", ct, body)
	assert.Equal(t, 400, r.code, "with the CSRF token the form reaches the smoke test: %s", r.body)
	assert.NotContains(t, r.body, `<script>alert`, "bot-controlled text is escaped")
	assert.Contains(t, r.body, "smoke test")

	// Limits: one bot name per author here (the failures above hold none: a working
	// bot takes it), six submissions a day (the API's and the form's smoke-test
	// failures, the two files that cannot run and the working bot count; the
	// oversize and malformed ones, and those refused for their name, do not).
	noisy, err := os.ReadFile(filepath.Join(bin, "noisybot"))
	require.NoError(t, err)
	ct, body = upload(t, "annbot", noisy, nil)
	r = call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
	require.Equal(t, 201, r.code, r.body)
	ct, body = upload(t, "secondname", script, nil)
	r = call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
	assert.Equal(t, 403, r.code, "bots per author: %s", r.body)
	var last reply
	for range 2 {
		ct, body = upload(t, "annbot", script, nil)
		last = call(t, nil, "POST", s.base+"/api/bots", ann, ct, body)
	}
	assert.Equal(t, 429, last.code, last.body)
	assert.Contains(t, last.body, "submissions in the last 24 hours")
}

// A bounded burst on loopback (48 clients, 600 requests over every kind of page) is
// answered with pages or 503 "busy", never an error, and the ladder plays on.
func TestServeSurvivesABurst(t *testing.T) {
	dir, db, _, _ := newLadder(t)
	s := startServe(t, dir, db, "--concurrent-requests", "8")
	before := waitForGames(t, s, "random", 2)
	paths := []string{"/", "/games", "/bots/1", "/bots/2", "/games/1?seat=all&step=3", "/games/1?seat=1&step=0", "/api/standings", "/login", "/me"}
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 48}}
	for w := range 48 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 600 / 48 {
				resp, err := client.Get(s.base + paths[(w+i)%len(paths)])
				code := -1
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("statuses of the burst: %v", codes)
	for code, n := range codes {
		switch code {
		case 200, 401, 503: // /me without a token is 401
		default:
			t.Errorf("%d answers with status %d", n, code)
		}
	}
	assert.Positive(t, codes[200], "the burst was served")
	waitForGames(t, s, "random", before.Games+2)
	s.stop(t)
}

// `arena author rotate NAME` prints a new token, once; from then on the old one lets
// nobody in (the service's tests show the sessions it opened end too). A name that
// is no author's, or none, is one line of error.
func TestAuthorRotate(t *testing.T) {
	dir, db, ann, bob := newLadder(t)
	r := runArena(t, dir, "author", "rotate", "ann", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	fresh := strings.TrimSpace(r.stdout)
	require.Len(t, fresh, 43, "32 random bytes in URL-safe base64")
	assert.NotEqual(t, ann, fresh)
	assert.Contains(t, r.stderr, "rotated the token of ann and ended their sessions")

	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()
	_, err = st.AuthorByToken(ctx, service.HashToken(ann))
	assert.ErrorIs(t, err, store.ErrNotFound, "the old token")
	a, err := st.AuthorByToken(ctx, service.HashToken(fresh))
	require.NoError(t, err)
	assert.Equal(t, "ann", a.Name)
	_, err = st.AuthorByToken(ctx, service.HashToken(bob))
	assert.NoError(t, err, "another author's token")

	for _, args := range [][]string{{"nobody"}, {}} {
		r = runArena(t, dir, append([]string{"author", "rotate", "--db", db}, args...)...)
		assert.Equal(t, 1, r.code, "%v: %s", args, r.stdout)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one error line: %s", r.stderr)
		assert.Empty(t, r.stdout, "no token")
	}
}
