package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
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
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(browserProfile(t)), chromedp.WindowSize(1100, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// Starting a browser and a few page loads take seconds; three minutes is room for load.
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

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
