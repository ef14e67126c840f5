package service_test

import (
	"compress/gzip"
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

	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/watch"
)

// recordGame plays an Ivanhoe game of two random players in process and records it in
// the site's store with its replay, as a ladder run would; it returns the game's ID.
func (site *ladderSite) recordGame(t *testing.T) int64 {
	t.Helper()
	var ids []int64
	for _, name := range []string{"left", "right"} {
		b, err := site.st.AddBot(ctx, store.Bot{Name: name, SHA256: "sha-" + name, Builtin: "random"})
		require.NoError(t, err)
		ids = append(ids, b.ID)
	}
	rep, err := watch.Record("ivanhoe", 7, nil, []string{"left", "right"}, []engine.Policy{random.New(1), random.New(2)})
	require.NoError(t, err)
	path := filepath.Join(site.st.Dir(), "game.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, watch.WriteReplay(f, rep))
	require.NoError(t, f.Close())
	blk, err := site.st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 7, Bots: ids, Rotations: 1})
	require.NoError(t, err)
	m, err := site.st.RecordMatch(ctx, store.Match{Block: blk.ID, Game: "ivanhoe", Seed: 7, Replay: path,
		Seats:   []store.Seat{{Bot: ids[0], Place: rep.Result.Place[0], Ending: "ok"}, {Bot: ids[1], Place: rep.Result.Place[1], Ending: "ok"}},
		Started: time.Now(), Finished: time.Now()})
	require.NoError(t, err)
	return m.ID
}

// stepsJSON is the part of the steps endpoint's answer the tests read.
type stepsJSON struct {
	Seat  int `json:"seat"`
	Steps []struct {
		Happened []string `json:"happened"`
		View     struct {
			Hand []int `json:"Hand"`
		} `json:"view"`
		Asked *struct {
			Options []string `json:"options"`
		} `json:"asked"`
	} `json:"steps"`
}

// The steps endpoint serves a finished game from every point of view without a login:
// a seat's steps carry its hand and its options, the public steps neither; a bad seat
// or game is one line with its status.
func TestStepsServeEveryPointOfView(t *testing.T) {
	site := newSite(t, service.Limits{})
	id := site.recordGame(t)
	get := func(query string) (reply, stepsJSON) {
		r := do(t, "GET", fmt.Sprintf("%s/api/games/%d/steps%s", site.base, id, query), nil, nil)
		var s stepsJSON
		if r.code == http.StatusOK {
			require.NoError(t, json.Unmarshal([]byte(r.body), &s), r.body)
		}
		return r, s
	}
	r, public := get("")
	require.Equal(t, http.StatusOK, r.code, r.body)
	assert.Equal(t, watch.Public, public.Seat)
	for seat := range 2 {
		r, s := get(fmt.Sprintf("?seat=%d", seat))
		require.Equal(t, http.StatusOK, r.code, r.body)
		require.Len(t, s.Steps, len(public.Steps))
		asked, held := 0, 0
		for i, st := range s.Steps {
			if st.Asked != nil {
				asked++
			}
			for _, n := range st.View.Hand {
				held += n
			}
			assert.Nil(t, public.Steps[i].Asked)
			for _, n := range public.Steps[i].View.Hand {
				assert.Zero(t, n, "step %d: the public view holds a card", i)
			}
		}
		assert.Positive(t, asked, "seat %d was asked", seat)
		assert.Positive(t, held, "seat %d held cards", seat)
	}
	// A client that takes gzip gets the steps compressed: a drawing per step makes them
	// megabytes of text.
	zr := do(t, "GET", fmt.Sprintf("%s/api/games/%d/steps", site.base, id), nil, map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, "gzip", zr.hdr.Get("Content-Encoding"))
	z, err := gzip.NewReader(strings.NewReader(zr.body))
	require.NoError(t, err)
	var unzipped stepsJSON
	require.NoError(t, json.NewDecoder(z).Decode(&unzipped))
	assert.Len(t, unzipped.Steps, len(public.Steps))
	for query, want := range map[string]int{"?seat=2": 400, "?seat=x": 400, "?seat=-1": 400} {
		r, _ := get(query)
		assert.Equal(t, want, r.code, query)
		assert.Equal(t, "seat is 0 to 1, or absent for the public view\n", r.body)
	}
	for path, want := range map[string]int{"/api/games/999/steps": 404, "/api/games/abc/steps": 400} {
		r := do(t, "GET", site.base+path, nil, nil)
		assert.Equal(t, want, r.code, path)
		assert.Equal(t, 1, strings.Count(r.body, "\n"), r.body)
	}
}

// The watch page names the steps its script loads and allows that script, from the
// site itself, and nothing inline; a bad seat is an error page with its status.
func TestWatchPageLoadsItsStepsOnce(t *testing.T) {
	site := newSite(t, service.Limits{})
	id := site.recordGame(t)
	// The text log first: the watch page is served after the other pages have been.
	text := do(t, "GET", fmt.Sprintf("%s/games/%d", site.base, id), nil, nil)
	assert.Contains(t, text.body, fmt.Sprintf(`href="/games/%d/watch"`, id), "the text log links to the drawn one")
	page := do(t, "GET", fmt.Sprintf("%s/games/%d/watch?seat=1", site.base, id), nil, nil)
	require.Equal(t, http.StatusOK, page.code, page.body)
	assert.Contains(t, page.body, fmt.Sprintf(`data-src="/api/games/%d/steps?seat=1"`, id))
	assert.Contains(t, page.body, `<script src="/watch.js"></script>`)
	csp := page.hdr.Get("Content-Security-Policy")
	assert.Contains(t, strings.Split(csp, "; "), "script-src 'self'", "the site's scripts only, none inline: %s", csp)
	js := do(t, "GET", site.base+"/watch.js", nil, nil)
	require.Equal(t, http.StatusOK, js.code)
	assert.Contains(t, js.hdr.Get("Content-Type"), "javascript")
	assert.Contains(t, js.body, "keydown")
	bad := do(t, "GET", fmt.Sprintf("%s/games/%d/watch?seat=9", site.base, id), nil, nil)
	assert.Equal(t, http.StatusBadRequest, bad.code)
	assert.Contains(t, bad.body, "seat is 0 to 1, or absent for the public view")
}
