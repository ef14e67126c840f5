package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// addBadbot puts the badbot test bot on the ladder in db as ann's bot badbot-MODE. A
// bot that misbehaves at its third decision fails any smoke test, so it is written
// into the store as a submission that passed and misbehaves later would be.
func addBadbot(t *testing.T, db, mode string) {
	t.Helper()
	bots := filepath.Join(filepath.Dir(db), "bots")
	require.NoError(t, store.PrivateDir(bots))
	name := "badbot-" + mode // badbot reads its mode from its file's name
	out, err := exec.Command("go", "build", "-o", filepath.Join(bots, name), "./testdata/badbot").CombinedOutput()
	require.NoError(t, err, "%s", out)
	program, err := os.ReadFile(filepath.Join(bots, name))
	require.NoError(t, err)
	// One program plays under one name: each mode's copy gets bytes of its own (an
	// executable runs the same with bytes after its end).
	program = append(program, name...)
	require.NoError(t, os.WriteFile(filepath.Join(bots, name), program, 0o555))
	sum := sha256.Sum256(program)
	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()
	require.NoError(t, st.Claim(ctx, 1, name), "ann is the first author")
	_, err = st.AddBot(ctx, store.Bot{Name: name, SHA256: hex.EncodeToString(sum[:]), Path: filepath.Join("bots", name)})
	require.NoError(t, err)
}

// get fetches a page or an API answer with the client (its cookies).
func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(strings.ReplaceAll(u, "&amp;", "&"))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// On a served ladder, an author finds every forfeit of her bots: `/api/games?bot=NAME&
// ending=timeout` lists them, and from her page she reaches the decision of each in
// two clicks (the bot's page, the forfeit), by following the links and in Chromium.
// What her bot wrote in a game is hers alone; `arena bot list` names her as the
// bot's author.
func TestServeAnAuthorFindsHerBotsForfeits(t *testing.T) {
	dir, db, ann, bob := newLadder(t)
	addBadbot(t, db, "timeout")
	addBadbot(t, db, "crash")
	s := startServe(t, dir, db)
	defer s.stop(t)

	var games service.GamesJSON
	// A game is recorded a moment before its replay takes its name: until then its
	// forfeit's decision is not known, and the poll waits for it too.
	forfeits := func(bot, ending string) bool {
		code, body := get(t, http.DefaultClient, s.base+"/api/games?bot="+bot+"&ending="+ending)
		if code != 200 || json.Unmarshal([]byte(body), &games) != nil || len(games.Games) == 0 {
			return false
		}
		for _, g := range games.Games {
			for _, seat := range g.Seats {
				if seat.Bot == bot && seat.Step == nil {
					return false
				}
			}
		}
		return true
	}
	// A few blocks of 2-player Ivanhoe, each timeout costing its decision's second:
	// seconds when idle, minutes at a load of 16.
	require.True(t, poll.Within(4*time.Minute, func() bool { return forfeits("badbot-crash", "crash") }), "no crash recorded: %s", s.text())
	require.True(t, poll.Within(4*time.Minute, func() bool { return forfeits("badbot-timeout", "timeout") }), "no timeout recorded: %s", s.text())
	api := map[string]bool{}
	for _, g := range games.Games {
		for _, seat := range g.Seats {
			if seat.Bot == "badbot-timeout" {
				assert.Equal(t, "timeout", seat.Ending)
				assert.Equal(t, "ann", seat.Author)
				require.NotNil(t, seat.Step, "the decision of game %d's timeout", g.ID)
				api[seat.AtStep] = true
			}
		}
	}

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	r := call(t, client, "POST", s.base+"/login", "", "application/x-www-form-urlencoded", strings.NewReader(url.Values{"token": {ann}}.Encode()))
	require.Equal(t, 200, r.code, r.body)
	bot := regexp.MustCompile(`<a href="(/bots/\d+)">badbot-timeout v1</a>`).FindStringSubmatch(r.body)
	require.NotNil(t, bot, r.body)
	code, page := get(t, client, s.base+bot[1]) // click 1
	require.Equal(t, 200, code, page)
	links := regexp.MustCompile(`<a class="step" href="([^"]+)"`).FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, links, page)
	for _, l := range links {
		at := strings.ReplaceAll(l[1], "&amp;", "&")
		m := regexp.MustCompile(`^/games/(\d+)\?seat=(\d)&step=(\d+)$`).FindStringSubmatch(at)
		if m == nil {
			// A game recorded since the API's answer, its replay not yet in place.
			assert.Regexp(t, `^/games/\d+\?seat=\d$`, at)
			assert.False(t, api[at])
			continue
		}
		code, step := get(t, client, s.base+at) // click 2
		require.Equal(t, 200, code, step)
		assert.Contains(t, step, fmt.Sprintf(`<span id="step">%s</span>`, m[3]))
		assert.Contains(t, step, fmt.Sprintf("seat %s (badbot-timeout v1) forfeits: timeout", m[2]), "the forfeit, at its decision")
	}
	for at := range api {
		assert.Contains(t, page, strings.ReplaceAll(at, "&", "&amp;"), "each forfeit the API lists is linked from the bot page")
	}

	// The crash's stderr is ann's: her bot's line, in the game it crashed in.
	forfeits("badbot-crash", "crash")
	crashed := games.Games[0].ID
	// The block's stderr files are written when its last game ends.
	crashLine := regexp.MustCompile(fmt.Sprintf(`=== game %d, seat \d, badbot-crash v1 ===\n(.|\n)*badbot: boom, on purpose`, crashed))
	require.True(t, poll.Within(time.Minute, func() bool {
		r = call(t, nil, "GET", fmt.Sprintf("%s/api/games/%d/stderr", s.base, crashed), ann, "", nil)
		return r.code == 200 && crashLine.MatchString(r.body)
	}), "%d: %s", r.code, r.body)
	assert.Regexp(t, fmt.Sprintf(`=== game %d, seat \d, badbot-crash v1 ===\n(.|\n)*badbot: boom, on purpose`, crashed), r.body)
	assert.Equal(t, 404, call(t, nil, "GET", fmt.Sprintf("%s/api/games/%d/stderr", s.base, crashed), bob, "", nil).code)

	t.Run("in a browser", func(t *testing.T) {
		exe := chromium(t)
		ctx := browser(t, exe)
		var known string // a forfeit whose decision is known
		for at := range api {
			known = at
		}
		var who, at, forfeit string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(s.base+"/login"),
			chromedp.WaitVisible("#token", chromedp.ByID),
			chromedp.SendKeys("#token", ann, chromedp.ByID),
			chromedp.Click("#login", chromedp.ByID),
			chromedp.WaitVisible("#mybots", chromedp.ByID),
			chromedp.Text("#who", &who, chromedp.ByID),
			chromedp.Click(`//a[text()="badbot-timeout v1"]`, chromedp.BySearch), // click 1
			chromedp.WaitVisible("#forfeits", chromedp.ByID),
			chromedp.Click(fmt.Sprintf(`#forfeits a.step[href=%q]`, known), chromedp.ByQuery), // click 2
			chromedp.WaitVisible("#current", chromedp.ByID),
			chromedp.Location(&at),
			chromedp.Text("#current .err", &forfeit, chromedp.ByQuery),
		))
		assert.Equal(t, "logged in as ann", who)
		assert.True(t, strings.HasSuffix(at, known), "%s is the forfeit's decision %s", at, known)
		assert.Contains(t, forfeit, "(badbot-timeout v1) forfeits: timeout")
	})

	list := runArena(t, dir, "bot", "list", "--db", db)
	require.Equal(t, 0, list.code, list.stderr)
	assert.Regexp(t, `(?m)^badbot-timeout +v1 +ann `, list.stdout)
	assert.Regexp(t, `(?m)^random +v1 +- +built-in random`, list.stdout)
}
