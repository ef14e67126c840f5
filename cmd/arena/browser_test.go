package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
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
)

// chromium finds Debian's Chromium; under CI (ARENA_REQUIRE_CHROMIUM) a missing one
// fails the test, elsewhere it skips with the reason.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ARENA_REQUIRE_CHROMIUM") != "" {
		t.Fatal("ARENA_REQUIRE_CHROMIUM is set but no chromium is installed (apt-get install chromium)")
	}
	t.Skip("no chromium installed (apt-get install chromium); set ARENA_REQUIRE_CHROMIUM=1 to make this a failure")
	return ""
}

// A real browser: an author logs in, submits a bot through the form, waits for its
// games, opens its page and a replay, and steps through it. Screenshots of each page
// are saved (in $ARENA_SCREENSHOTS when set) and must not be blank.
func TestBrowserSubmitWatchAndReplay(t *testing.T) {
	exe := chromium(t)
	dir, db, ann, _ := newLadder(t)
	s := startServe(t, dir, db)
	shots := os.Getenv("ARENA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	ctx := browser(t, exe)

	shot := func(name string) chromedp.Action {
		return chromedp.ActionFunc(func(ctx context.Context) error {
			var buf []byte
			if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
				return err
			}
			requireNotBlank(t, name, buf)
			return os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644)
		})
	}
	var msg string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(s.base+"/login"),
		chromedp.WaitVisible("#token", chromedp.ByID),
		chromedp.SendKeys("#token", ann, chromedp.ByID),
		chromedp.Click("#login", chromedp.ByID),
		chromedp.WaitVisible("#submit", chromedp.ByID),
		chromedp.SendKeys("#name", "webbot", chromedp.ByID),
		chromedp.SetUploadFiles("#program", []string{filepath.Join(bin, "noisybot")}, chromedp.ByID),
		chromedp.Click("#send", chromedp.ByID),
		chromedp.WaitVisible("#message", chromedp.ByID),
		chromedp.Text("#message", &msg, chromedp.ByID),
		shot("1-submitted"),
	))
	assert.Contains(t, msg, "added webbot v1")

	st := waitForGames(t, s, "webbot", 4)
	games := call(t, nil, "GET", s.base+"/games", "", "", nil)
	var id []string
	for _, row := range strings.Split(games.body, "<tr>") {
		if strings.Contains(row, "webbot v1") && id == nil {
			id = regexp.MustCompile(`href="/games/(\d+)"`).FindStringSubmatch(row)
		}
	}
	require.NotNil(t, id, games.body)

	var step, chosen string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/bots/%d", s.base, st.Bot.ID)),
		chromedp.WaitVisible("#bot", chromedp.ByID),
		shot("2-bot"),
		chromedp.Navigate(s.base+"/games/"+id[1]+"?seat=all&step=0"),
		chromedp.WaitVisible("#current", chromedp.ByID),
		chromedp.Click("#next", chromedp.ByID),
		chromedp.WaitVisible("#current", chromedp.ByID),
		chromedp.Click("#next", chromedp.ByID),
		chromedp.WaitVisible("#current", chromedp.ByID),
		chromedp.Text("#step", &step, chromedp.ByID),
		chromedp.Text("#current .chosen", &chosen, chromedp.ByQuery),
		shot("3-replay-all"),
		chromedp.Navigate(s.base+"/games/"+id[1]+"?seat=0&step=2"),
		chromedp.WaitVisible("#current", chromedp.ByID),
		shot("4-replay-seat0"),
		chromedp.Navigate(s.base+"/"),
		chromedp.WaitVisible("#standings", chromedp.ByID),
		shot("5-standings"),
	))
	assert.Equal(t, "2", step, "two clicks on next step to decision 2")
	assert.NotEmpty(t, chosen, "the replay shows the choice made")
	t.Logf("screenshots in %s", shots)
}

// browser starts a headless Chromium of exe for the test and returns its context.
func browser(t *testing.T, exe string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(browserProfile(t)), chromedp.WindowSize(1100, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(actx)
	// Starting a browser and a few page loads take seconds; three minutes is room for load.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancel(); cancelBrowser(); cancelAlloc() })
	return ctx
}

// A real browser visits another site's page that posts the login form to the ladder
// by itself, with the attacker's token (so that the victim, logged in as the
// attacker, would submit their bot to the attacker's account): the ladder refuses the
// post, and the browser holds no session afterwards.
func TestBrowserCrossSiteLoginRefused(t *testing.T) {
	exe := chromium(t)
	dir, db, _, attacker := newLadder(t)
	s := startServe(t, dir, db)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/login"><input name="token" value="%s"></form>
<script>document.forms[0].submit()</script>`, s.base, attacker)
	}))
	defer evil.Close()
	// localhost is another site than the ladder's 127.0.0.1.
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)
	ctx := browser(t, exe)
	var refused, me string
	ladderHost := strings.TrimPrefix(s.base, "http://")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(evilURL),
		// The evil page's script posts the form: wait for the ladder's answer.
		chromedp.Poll(fmt.Sprintf(`location.host == %q && document.readyState == "complete"`, ladderHost), nil),
		chromedp.Text("body", &refused, chromedp.ByQuery),
		chromedp.Navigate(s.base+"/me"),
		chromedp.Text("body", &me, chromedp.ByQuery),
	))
	assert.Contains(t, refused, "cross-site request refused")
	assert.Contains(t, me, "needs an author's token", "no session was opened")
}

// requireNotBlank fails on a screenshot that is one colour, or nearly: a page that
// rendered has text and lines covering more than a small share of its pixels.
func requireNotBlank(t *testing.T, name string, data []byte) {
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err, name)
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	differ, total := 0, 0
	colours := map[[4]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.At(x, y)
			r, g, bl, a := c.RGBA()
			colours[[4]uint32{r >> 12, g >> 12, bl >> 12, a >> 12}] = true
			if c != bg {
				differ++
			}
			total++
		}
	}
	assert.Greater(t, float64(differ)/float64(total), 0.005, "%s: only %d of %d pixels differ from the background", name, differ, total)
	assert.Greater(t, len(colours), 4, "%s: %d colours", name, len(colours))
}

// browserProfile is a fresh Chromium profile folder. Chromium's helper processes may
// still write to it for a moment after the browser exits, so it is removed by polling
// (t.TempDir's single attempt failed on a loaded machine); 30 s is room for load.
func browserProfile(t *testing.T) string {
	dir, err := os.MkdirTemp("", "arena-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		for deadline := time.Now().Add(30 * time.Second); os.RemoveAll(dir) != nil && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}
