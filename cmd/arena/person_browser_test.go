package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// A logged-in author plays an unrated Ivanhoe game in a real browser against the
// ladder's random bot (a sandboxed bot process, as on the ladder) to its end, by
// clicking options in words, without a page load; the game is marked unrated, is
// recorded nowhere, is listed among the author's games, and an author may have two
// under way at once, not three. The screenshot of a decision is kept (in
// $ARENA_SCREENSHOTS when set).
func TestBrowserPlaysAGameAgainstABot(t *testing.T) {
	exe := chromium(t)
	shots := os.Getenv("ARENA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	dir, db, ann, _ := newLadder(t)
	s := startServe(t, dir, db)
	defer s.stop(t)
	ctx := browser(t, exe)
	pickRandom := `(function(){var s=document.querySelector("#bot0");s.value=[...s.options].find(o=>o.text.startsWith("random")).value;return s.value})()`
	var picked, title, note string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.EmulateViewport(1500, 1000),
		chromedp.Navigate(s.base+"/login"),
		chromedp.WaitVisible("#token", chromedp.ByID),
		chromedp.SendKeys("#token", ann, chromedp.ByID),
		chromedp.Click("#login", chromedp.ByID),
		chromedp.WaitVisible("#submit", chromedp.ByID),
		chromedp.Navigate(s.base+"/play"),
		chromedp.WaitVisible("#start", chromedp.ByID),
		chromedp.Evaluate(pickRandom, &picked),
		chromedp.Click("#playbutton", chromedp.ByID),
		chromedp.WaitVisible("#table svg", chromedp.ByQuery),
		chromedp.Evaluate(`window.loadedOnce = true`, nil),
		chromedp.Text("#person", &title, chromedp.ByID),
		chromedp.Text(".note", &note, chromedp.ByQuery),
	))
	require.NotEmpty(t, picked)
	assert.Contains(t, title, "Unrated game")
	assert.Contains(t, note, "Not rated")

	// Click the first option whenever the person is asked, until the game is over.
	moves := 0
	var status string
	require.True(t, poll.Within(3*time.Minute, func() bool {
		var clicked bool
		err := chromedp.Run(ctx,
			chromedp.Evaluate(`(function(){var b=document.querySelector("#asked button.option");if(b){b.click();return true}return false})()`, &clicked),
			chromedp.Text("#status", &status, chromedp.ByID))
		if err != nil {
			return false
		}
		if clicked {
			moves++
			if moves == 6 {
				require.NoError(t, chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
					var buf []byte
					if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
						return err
					}
					requireNotBlank(t, "watch-person", buf)
					return os.WriteFile(filepath.Join(shots, "watch-person.png"), buf, 0o644)
				})))
			}
		}
		return strings.Contains(status, "the game is over")
	}), "the game did not end in three minutes: %d moves, status %q", moves, status)
	var marker bool
	var result, seat0 string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`window.loadedOnce === true`, &marker),
		chromedp.Text("#result", &result, chromedp.ByID),
	))
	assert.True(t, marker, "the game was played on one page")
	assert.Greater(t, moves, 5, "the person made the moves of a whole game")
	assert.Contains(t, result, "placed")

	var games, third string
	start := func() chromedp.Tasks {
		return chromedp.Tasks{
			chromedp.Navigate(s.base + "/play"),
			chromedp.WaitVisible("#start", chromedp.ByID),
			chromedp.Evaluate(pickRandom, &picked),
			chromedp.Click("#playbutton", chromedp.ByID),
		}
	}
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(s.base+"/play"),
		chromedp.WaitVisible("#mygames", chromedp.ByID),
		chromedp.Text("#mygames", &games, chromedp.ByID),
		start(), chromedp.WaitVisible("#table svg", chromedp.ByQuery),
		start(), chromedp.WaitVisible("#table svg", chromedp.ByQuery),
		start(), chromedp.WaitVisible("#error", chromedp.ByID),
		chromedp.Text("#error", &third, chromedp.ByID),
	))
	assert.Contains(t, games, "finished: you placed")
	assert.Contains(t, third, "2 games under way")
	r := call(t, nil, "GET", s.base+"/api/games?limit=200", "", "", nil)
	assert.NotContains(t, r.body, "(you)", "a person's game is recorded nowhere")
	seat0 = r.body
	assert.NotContains(t, seat0, "ann", "no game of the ladder has the person in it")
}
