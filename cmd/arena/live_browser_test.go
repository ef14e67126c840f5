package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/service"
)

// liveLadder serves a ladder of two bots that think 150 and 180 ms a decision (two
// programs: the ladder takes a program once), so that an Ivanhoe game lasts about fifteen
// seconds (more under load): long enough to be opened and watched while it is played.
func liveLadder(t *testing.T, extra ...string) *served {
	t.Helper()
	dir, db, _, _ := newLadder(t)
	for name, think := range map[string]time.Duration{"ponder": 180 * time.Millisecond, "muse": 150 * time.Millisecond} {
		old := map[string]string{"ponder": "random", "muse": "heuristic"}[name]
		r := runArena(t, dir, "bot", "retire", old, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
		r = runArena(t, dir, "bot", "add", buildSleepyBot(t, think), "--name", name, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	return startServe(t, dir, db, extra...)
}

// liveGameOf waits for a game in progress on the ladder (blocks start one after
// another, so one is under way most of the time).
func liveGameOf(t *testing.T, s *served) service.LiveGame {
	t.Helper()
	var games []service.LiveGame
	require.True(t, poll.Within(time.Minute, func() bool {
		r := call(t, nil, "GET", s.base+"/api/live", "", "", nil)
		return r.code == 200 && json.Unmarshal([]byte(r.body), &games) == nil && len(games) > 0
	}), "no game in progress within a minute: %s", s.text())
	return games[0]
}

// streamed reads a live game's server-sent events until the stream ends, and returns
// each event's kind and data.
func streamed(url string) (kinds, data []string, err error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			kinds = append(kinds, k)
		}
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			data = append(data, d)
		}
	}
	return kinds, data, sc.Err()
}

// openLive opens, from the live list, a game in progress in the browser, and returns
// its page's path. The list is read again until it has a game, and a game that ended
// before its page opened (the page is then its replay) is left for another.
func openLive(t *testing.T, ctx context.Context, base string) string {
	t.Helper()
	var path string
	require.True(t, poll.Within(2*time.Minute, func() bool {
		var href string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+"/live"),
			chromedp.WaitVisible("h2", chromedp.ByQuery),
			chromedp.Evaluate(`(document.querySelector("#livegames a") || {}).pathname || ""`, &href))
		if err != nil || href == "" {
			return false
		}
		err = chromedp.Run(ctx,
			chromedp.Navigate(base+href),
			chromedp.WaitVisible("#table svg", chromedp.ByQuery),
			chromedp.Evaluate(`location.pathname`, &path))
		return err == nil && strings.HasPrefix(path, "/live/")
	}), "no live game opened in the browser in two minutes")
	return path
}

type viewSteps struct {
	Steps []struct {
		Text     string   `json:"text"`
		Happened []string `json:"happened"`
	} `json:"steps"`
}

// A real ladder plays while a real browser opens one of its games in progress from
// the live list: the table advances without a page load, and once the game is
// recorded the page becomes its replay. Beside it a client reads the same game's
// stream from the start: its steps are the recorded game's public ones, and no hand
// of any seat and no event only a seat saw is in it. The screenshot of the live page
// is kept (in $ARENA_SCREENSHOTS when set).
func TestBrowserWatchesALiveGame(t *testing.T) {
	exe := chromium(t)
	shots := os.Getenv("ARENA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	s := liveLadder(t)
	defer s.stop(t)
	g := liveGameOf(t, s)
	type stream struct {
		kinds, data []string
		err         error
	}
	got := make(chan stream, 1)
	go func() {
		k, d, err := streamed(s.base + g.Events)
		got <- stream{k, d, err}
	}()

	ctx := browser(t, exe)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(1500, 1000)))
	var first, later string
	var marker, live bool
	var path string
	// A game opened near its end may end (and its page become the replay) before it
	// is seen to move on: then another is opened.
	for try := 0; try < 3 && !live; try++ {
		openLive(t, ctx, s.base)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`window.loadedOnce = true`, nil),
			chromedp.Text("#step", &first, chromedp.ByID),
		))
		// The screenshot waits a little (not for ever) for a table with cards played.
		cards := `(document.querySelector("#table svg").textContent.match(/(purple|red|blue|yellow|green) ?\d/g) || []).length >= 3`
		_ = chromedp.Run(ctx, chromedp.Poll(cards, nil, chromedp.WithPollingTimeout(5*time.Second)))
		// 0.15 s a decision: the step moves on within a second; a minute is room for load.
		moved := fmt.Sprintf(`document.getElementById("step").textContent != %q`, first)
		err := chromedp.Run(ctx,
			chromedp.Poll(moved, nil, chromedp.WithPollingTimeout(time.Minute)),
			chromedp.Text("#step", &later, chromedp.ByID),
			chromedp.Evaluate(`window.loadedOnce === true`, &marker),
			chromedp.Evaluate(`location.pathname`, &path),
			chromedp.ActionFunc(func(ctx context.Context) error {
				var buf []byte
				if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
					return err
				}
				requireNotBlank(t, "watch-live", buf)
				return os.WriteFile(filepath.Join(shots, "watch-live.png"), buf, 0o644)
			}))
		live = err == nil && strings.HasPrefix(path, "/live/")
	}
	require.True(t, live, "no live game was seen to move on in three tries")
	// The page goes to the replay by itself once the game is recorded: asked again
	// until then (a question asked while the page navigates fails, and is asked again).
	require.True(t, poll.Within(2*time.Minute, func() bool {
		return chromedp.Run(ctx, chromedp.Evaluate(`location.pathname`, &path)) == nil && strings.HasPrefix(path, "/games/")
	}), "the live page did not become the replay's: %s", path)
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible("#table svg", chromedp.ByQuery)))
	assert.True(t, marker, "the live page advanced without a page load")
	assert.NotEqual(t, first, later)

	var st stream
	select {
	case st = <-got:
	case <-time.After(2 * time.Minute):
		t.Fatal("the stream did not end with its game")
	}
	require.NoError(t, st.err)
	require.NotEmpty(t, st.kinds)
	assert.Equal(t, "game", st.kinds[0])
	assert.Equal(t, "recorded", st.kinds[len(st.kinds)-1])
	var rec struct {
		ID   int64  `json:"id"`
		Page string `json:"page"`
	}
	require.NoError(t, json.Unmarshal([]byte(st.data[len(st.data)-1]), &rec))
	assert.Regexp(t, `^/games/\d+/watch$`, path, "the browser went to its game's replay")
	assert.Equal(t, fmt.Sprintf("/games/%d/watch", rec.ID), rec.Page)

	all := strings.Join(st.data, "\n")
	var public viewSteps
	r := call(t, nil, "GET", fmt.Sprintf("%s/api/games/%d/steps", s.base, rec.ID), "", "", nil)
	require.NoError(t, json.Unmarshal([]byte(r.body), &public))
	n := 0
	for i, k := range st.kinds {
		if k == "step" {
			assert.Contains(t, st.data[i], jsonQuoted(public.Steps[n].Text), "step %d is the public one", n)
			n++
		}
	}
	assert.Len(t, public.Steps, n, "the stream had every step")
	told := map[string]bool{}
	for _, p := range public.Steps {
		for _, h := range p.Happened {
			told[h] = true
		}
	}
	for seat := range 2 {
		var mine viewSteps
		r := call(t, nil, "GET", fmt.Sprintf("%s/api/games/%d/steps?seat=%d", s.base, rec.ID, seat), "", "", nil)
		require.NoError(t, json.Unmarshal([]byte(r.body), &mine))
		for i, v := range mine.Steps {
			hand := handLine(v.Text)
			if hand == handLine(public.Steps[i].Text) {
				continue // an empty hand reads as the public's: it hides nothing
			}
			assert.NotContains(t, all, jsonQuoted(hand), "seat %d's hand at step %d", seat, i)
			for _, h := range v.Happened {
				if !told[h] {
					assert.NotContains(t, all, jsonQuoted(h), "seat %d's private event at step %d", seat, i)
				}
			}
		}
	}
}

// handLine is the line of a view's text that lists its hand.
func handLine(text string) string {
	_, hand, _ := strings.Cut(text, "hand: ")
	hand, _, _ = strings.Cut(hand, "\n")
	return "hand: " + hand
}

// jsonQuoted is s as it stands inside a JSON string.
func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}
