package service_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/watch"
)

// sse is one server-sent event.
type sse struct {
	kind string
	data string
	at   time.Time
}

// readEvents reads a stream of server-sent events, asked for with the headers set,
// into a channel, closed at its end.
func readEvents(t *testing.T, url string, set map[string]string) (<-chan sse, *http.Response) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	for k, v := range set {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	out := make(chan sse, 1024)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		var ev sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.kind != "":
				ev.at = time.Now()
				out <- ev
				ev = sse{}
			}
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return out, resp
}

// next is the stream's next event, within a deadline far beyond a loaded machine's
// delays (the test writes what the service reads).
func next(t *testing.T, events <-chan sse) sse {
	t.Helper()
	select {
	case ev, ok := <-events:
		require.True(t, ok, "the stream ended")
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no event in 20 s")
	}
	return sse{}
}

// A game in progress, its replay written record by record as the runner writes it,
// is listed and streamed from the public point of view, each move held back by the
// live delay, while the stream holds no request slot; once the game is recorded the
// stream names its replay. The stream's steps are the finished game's public steps:
// no hand, and no event only a seat saw.
func TestALiveGameIsStreamedAsItIsPlayed(t *testing.T) {
	const delay = 300 * time.Millisecond
	site := newSite(t, service.Limits{Concurrent: 1})
	replays := t.TempDir()
	site.cfg.Replays, site.cfg.LiveDelay = replays, delay
	site.start(t)
	var ids []int64
	for _, name := range []string{"left", "right"} {
		b, err := site.st.AddBot(ctx, store.Bot{Name: name, SHA256: "sha-" + name, Builtin: "random"})
		require.NoError(t, err)
		ids = append(ids, b.ID)
	}
	blk, err := site.st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 7, Bots: ids, Rotations: 1})
	require.NoError(t, err)
	rep, err := watch.Record("ivanhoe", 7, nil, []string{"left", "right"}, []engine.Policy{random.New(1), random.New(2)})
	require.NoError(t, err)
	var whole bytes.Buffer
	require.NoError(t, watch.WriteReplay(&whole, rep))
	lines := strings.SplitAfter(whole.String(), "\n")
	dir := filepath.Join(replays, "ivanhoe", fmt.Sprintf("block-%d", blk.ID))
	require.NoError(t, os.MkdirAll(dir, 0o700))
	tmp := filepath.Join(dir, "d0000-r0.jsonl"+arena.TempReplaySuffix)
	f, err := os.Create(tmp)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString(strings.Join(lines[:6], "")) // the header and five decisions
	require.NoError(t, err)

	var list []service.LiveGame
	require.NoError(t, json.Unmarshal([]byte(do(t, "GET", site.base+"/api/live", nil, nil).body), &list))
	require.Len(t, list, 1)
	assert.Equal(t, []string{"left", "right"}, list[0].Bots)
	assert.Equal(t, fmt.Sprintf("/live/%d/0", blk.ID), list[0].Page)
	page := do(t, "GET", site.base+"/live", nil, nil)
	assert.Contains(t, page.body, list[0].Page, "the live list links the game")

	opened := time.Now()
	events, resp := readEvents(t, site.base+list[0].Events, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	first := next(t, events)
	assert.Equal(t, "game", first.kind)
	assert.GreaterOrEqual(t, first.at.Sub(opened), delay, "the first move is held back by the delay")
	assert.Equal(t, http.StatusOK, do(t, "GET", site.base+"/api/standings", nil, nil).code, "a stream holds no request slot (1 here)")

	type liveStep struct {
		Text     string   `json:"text"`
		Happened []string `json:"happened"`
		Asked    any      `json:"asked"`
	}
	var steps []liveStep
	step := func() {
		ev := next(t, events)
		require.Equal(t, "step", ev.kind, ev.data)
		var st liveStep
		require.NoError(t, json.Unmarshal([]byte(ev.data), &st))
		steps = append(steps, st)
	}
	for range 6 {
		step()
	}
	// A second viewer joins the game under way: it is sent the game from its start.
	late, _ := readEvents(t, site.base+list[0].Events, nil)
	_, err = f.WriteString(strings.Join(lines[6:], "")) // the rest, and the result
	require.NoError(t, err)
	for range len(rep.Decisions) - 5 {
		step()
	}
	assert.Equal(t, "result", next(t, events).kind)
	m, err := site.st.RecordMatch(ctx, store.Match{Block: blk.ID, Game: "ivanhoe", Seed: 7,
		Seats:   []store.Seat{{Bot: ids[0], Place: rep.Result.Place[0], Ending: "ok"}, {Bot: ids[1], Place: rep.Result.Place[1], Ending: "ok"}},
		Started: time.Now(), Finished: time.Now()})
	require.NoError(t, err)
	require.NoError(t, os.Remove(tmp))
	end := next(t, events)
	assert.Equal(t, "recorded", end.kind)
	var kinds []string
	for ev := range late {
		kinds = append(kinds, ev.kind)
	}
	assert.Len(t, kinds, len(rep.Decisions)+4, "the late viewer's stream: the game, every step, the result, the record")
	assert.Equal(t, "recorded", kinds[len(kinds)-1])
	assert.Contains(t, end.data, fmt.Sprintf(`"page":"/games/%d/watch"`, m.ID))

	public, err := watch.Steps(rep, watch.Public)
	require.NoError(t, err)
	require.Len(t, steps, len(public.Steps))
	for i, st := range steps {
		assert.Equal(t, public.Steps[i].Text, st.Text, "step %d", i)
		assert.Equal(t, public.Steps[i].Happened, st.Happened, "step %d", i)
		assert.Nil(t, st.Asked, "step %d: the stream asks nothing", i)
	}
	assert.Equal(t, http.StatusSeeOther, noRedirect(t, site.base+list[0].Page).StatusCode, "a finished live game is its replay")
	assert.Equal(t, http.StatusNotFound, do(t, "GET", site.base+list[0].Events, nil, nil).code)
	assert.Equal(t, http.StatusBadRequest, do(t, "GET", site.base+"/api/live/x/0/events", nil, nil).code)
}

func noRedirect(t *testing.T, url string) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}
