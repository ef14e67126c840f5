package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/watch"
)

// watchedLadder serves a ladder of game holding one recorded game of random players,
// and returns its address and the game's replay; the game is number 1.
func watchedLadder(t *testing.T, game string, players int) (string, *arena.Replay) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	var bots []string
	var ids []int64
	var seats []engine.Policy
	var ss []store.Seat
	for s := range players {
		b, err := st.AddBot(ctx, store.Bot{Name: fmt.Sprintf("random%d", s), SHA256: fmt.Sprint("sha", s), Builtin: "random"})
		require.NoError(t, err)
		bots, ids = append(bots, b.Name), append(ids, b.ID)
		seats = append(seats, random.New(uint64(10+s)))
	}
	rep, err := watch.Record(game, 5, nil, bots, seats)
	require.NoError(t, err)
	path := filepath.Join(st.Dir(), "game.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, watch.WriteReplay(f, rep))
	require.NoError(t, f.Close())
	blk, err := st.NewBlock(ctx, store.Block{Game: game, Seed: 5, Bots: ids, Rotations: 1})
	require.NoError(t, err)
	for s := range players {
		ss = append(ss, store.Seat{Bot: ids[s], Place: rep.Result.Place[s], Score: rep.Result.Score[s], Ending: "ok"})
	}
	_, err = st.RecordMatch(ctx, store.Match{Block: blk.ID, Game: game, Seed: 5, Replay: path, Seats: ss, Started: time.Now(), Finished: time.Now()})
	require.NoError(t, err)
	svc, err := service.New(service.Config{Store: st, Authors: st, Game: game,
		Submit: func(context.Context, string, string) (store.Bot, error) {
			return store.Bot{}, fmt.Errorf("no uploads here")
		}})
	require.NoError(t, err)
	ts := httptest.NewServer(svc.Handler())
	t.Cleanup(ts.Close)
	return ts.URL, rep
}

// showing is the first step from seat 0's point of view, from the 30th on, whose view
// show accepts: a step that shows the game's table at its busiest for the screenshot.
func showing(t *testing.T, rep *arena.Replay, show func(engine.View) bool) int {
	g, err := watch.Steps(rep, 0)
	require.NoError(t, err)
	for i := 30; i < len(g.Steps); i++ {
		if show(g.Steps[i].View) {
			return i
		}
	}
	return 30
}

// A real browser opens a game's page at a step named in its address, steps with the
// arrow keys and a button, and the drawing and the words beside it change while the
// page stays the one loaded (a marker set in it survives). A screenshot of each game's
// table from a seat's point of view is kept (in $ARENA_SCREENSHOTS when set).
func TestBrowserWatchesAGameStepByStep(t *testing.T) {
	exe := chromium(t)
	shots := os.Getenv("ARENA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	for _, c := range []struct {
		game    string
		players int
		show    func(engine.View) bool // what the screenshot's step shows
	}{
		{"ivanhoe", 3, func(v engine.View) bool {
			d := v.(*ivanhoe.View).Displays
			return len(d[0])+len(d[1])+len(d[2]) >= 4
		}},
		{"kardinal", 4, func(v engine.View) bool { return v.(*kardinal.View).DrawPile < 20 }},
		{"ninjas", 3, func(v engine.View) bool { return v.(*ninjas.View).Pending.Kind != ninjas.NoKind }},
	} {
		t.Run(c.game, func(t *testing.T) {
			base, rep := watchedLadder(t, c.game, c.players)
			at := showing(t, rep, c.show)
			bctx := browser(t, exe)
			var step, drawing, before, hash, title string
			var marker bool
			var asked int
			require.NoError(t, chromedp.Run(bctx,
				chromedp.EmulateViewport(1500, 1000),
				chromedp.Navigate(fmt.Sprintf("%s/games/1/watch?seat=0#step=%d", base, at)),
				chromedp.WaitVisible("#table svg", chromedp.ByQuery),
				chromedp.Text("#step", &step, chromedp.ByQuery),
				chromedp.Evaluate(`window.loadedOnce = true`, nil),
				chromedp.OuterHTML("#table svg", &before, chromedp.ByQuery),
				chromedp.ActionFunc(func(ctx context.Context) error {
					var buf []byte
					if err := chromedp.FullScreenshot(&buf, 100).Do(ctx); err != nil {
						return err
					}
					requireNotBlank(t, c.game, buf)
					return os.WriteFile(filepath.Join(shots, "watch-"+c.game+".png"), buf, 0o644)
				}),
			))
			assert.Equal(t, strconv.Itoa(at), step, "the address's #step opens that step")
			// Step right until the drawing changes: a decision another seat took in
			// secret may leave this seat's table as it was, but not for long.
			changed := false
			for i := 1; i <= 20 && !changed; i++ {
				require.NoError(t, chromedp.Run(bctx,
					chromedp.KeyEvent(kb.ArrowRight),
					chromedp.Poll(fmt.Sprintf(`document.getElementById("step").textContent == "%d"`, at+i), nil),
					chromedp.OuterHTML("#table svg", &drawing, chromedp.ByQuery),
				))
				changed = drawing != before
			}
			assert.True(t, changed, "20 steps right and the drawing never changed")
			require.NoError(t, chromedp.Run(bctx,
				chromedp.Evaluate(`location.hash`, &hash),
				chromedp.Text("#title", &title, chromedp.ByQuery),
				chromedp.Click("#nextseat", chromedp.ByQuery),
				chromedp.WaitVisible("#asked ol li", chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelectorAll("#asked ol li").length`, &asked),
				chromedp.Evaluate(`window.loadedOnce === true`, &marker),
			))
			assert.Regexp(t, `^#step=\d+$`, hash, "the address follows the step")
			assert.Contains(t, title, "after decision")
			assert.Positive(t, asked, "seat 0's next decision lists its options")
			assert.True(t, marker, "stepping loaded no page")
		})
	}
	t.Logf("screenshots in %s", shots)
}
