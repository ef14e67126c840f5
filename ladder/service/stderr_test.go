package service_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// A game's stderr is its bots' authors': each reads what their own bot wrote in that
// game and nothing of another's, a bot whose name ends like theirs included; a game
// none of their bots played is not found.
func TestGameStderrIsItsAuthorsAlone(t *testing.T) {
	site := newSite(t, service.Limits{})
	annbot, random := site.bot(t, "annbot", 1), site.bot(t, "random", 0)
	// bob's bot is named so that "stderr-*-annbot v1..." would match its files too.
	bobs := site.bot(t, "x-annbot", 2)
	day := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	shared := site.record(t, played{bots: []store.Bot{bobs, annbot}, finished: day,
		stderr: []string{"bob's secret\n", "ann's line in the shared game\n"}})
	hers := site.record(t, played{bots: []store.Bot{annbot, random}, forfeit: "timeout", at: 4, finished: day.Add(time.Hour),
		stderr: []string{"<script>ann's own game</script>\n", "random's\n"}})

	url := func(id int64) string { return fmt.Sprintf("%s/api/games/%d/stderr", site.base, id) }
	r := do(t, "GET", url(shared.ID), nil, bearer(site.ann))
	require.Equal(t, 200, r.code, r.body)
	assert.Equal(t, fmt.Sprintf("=== game %d, seat 1, annbot v1 ===\nann's line in the shared game\n\n", shared.ID), r.body)
	assert.True(t, strings.HasPrefix(r.hdr.Get("Content-Type"), "text/plain"))
	assert.Contains(t, r.hdr.Get("Content-Disposition"), "attachment")
	r = do(t, "GET", url(shared.ID), nil, bearer(site.bob))
	require.Equal(t, 200, r.code, r.body)
	assert.Equal(t, fmt.Sprintf("=== game %d, seat 0, x-annbot v1 ===\nbob's secret\n\n", shared.ID), r.body)

	r = do(t, "GET", url(hers.ID), nil, bearer(site.bob))
	assert.Equal(t, 404, r.code, "bob played no part in it: %s", r.body)
	assert.NotContains(t, r.body, "ann's own game")
	assert.Equal(t, 401, do(t, "GET", url(hers.ID), nil, nil).code)
	assert.Equal(t, 404, do(t, "GET", url(99), nil, bearer(site.ann)).code)
	cookie := map[string]string{"Cookie": site.session(t, site.ann)}
	page := do(t, "GET", fmt.Sprintf("%s/me/games/%d/stderr", site.base, hers.ID), nil, cookie)
	require.Equal(t, 200, page.code)
	assert.Contains(t, page.body, "<script>ann's own game</script>", "plain text, as the bot wrote it")
	assert.NotContains(t, page.body, "random's")

	// The bot's download is game by game, newest first, and only its own.
	all := do(t, "GET", site.base+"/api/bots/annbot/stderr", nil, bearer(site.ann))
	require.Equal(t, 200, all.code)
	assert.Equal(t, []string{fmt.Sprintf("game %d, seat 0", hers.ID), fmt.Sprintf("game %d, seat 1", shared.ID)},
		headers(all.body))
	assert.NotContains(t, all.body, "bob's secret")
}

// A block played before stderr was kept per seat has one file per bot: each of its
// games points there, and the file is sent once; another bot's file is never sent,
// however its name ends.
func TestStderrOfOlderBlocksIsSentOnce(t *testing.T) {
	site := newSite(t, service.Limits{})
	annbot, random := site.bot(t, "annbot", 1), site.bot(t, "random", 0)
	blk, err := site.st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: 7, Bots: []int64{annbot.ID, random.ID}, Rotations: 2})
	require.NoError(t, err)
	dir := filepath.Join(site.st.Dir(), "replays", "ivanhoe", fmt.Sprintf("block-%d", blk.ID))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stderr-0-annbot v1.log"), []byte("both games\n"), 0o644))
	// A file whose name ends as annbot's does, of another bot: never annbot's.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stderr-1-x-annbot v1.log"), []byte("another's\n"), 0o644))
	for rot := range 2 {
		_, err := site.st.RecordMatch(ctx, store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe", Replay: filepath.Join(dir, fmt.Sprintf("r%d.jsonl", rot)),
			Seats: []store.Seat{{Bot: annbot.ID, Ending: "ok"}, {Bot: random.ID, Place: 1, Ending: "ok"}}, Finished: time.Now()})
		require.NoError(t, err)
	}
	all := do(t, "GET", site.base+"/api/bots/annbot/stderr", nil, bearer(site.ann))
	require.Equal(t, 200, all.code)
	assert.Equal(t, 1, strings.Count(all.body, "both games"), all.body)
	assert.NotContains(t, all.body, "another's")
	assert.Contains(t, all.body, fmt.Sprintf("every game of block %d", blk.ID))
	assert.Contains(t, all.body, fmt.Sprintf("with block %d's above", blk.ID))
}

func headers(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^=== (game \d+, seat \d+)`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// A game `ladder run` recorded keeps its replay in the database and only its bots'
// stderr in its block's folder: its author downloads the replay, finds the decision
// of the forfeit on the games page, reads the stderr, and anyone steps through it.
func TestAGameWithItsReplayInTheDatabaseShowsAsAFilesGame(t *testing.T) {
	site := newSite(t, service.Limits{})
	annbot, random := site.bot(t, "annbot", 1), site.bot(t, "random", 0)
	m := site.record(t, played{bots: []store.Bot{annbot, random}, forfeit: "timeout", at: 4, finished: time.Now(),
		stderr: []string{"why I lost\n"}, inStore: true})
	require.NoFileExists(t, m.Replay)
	want, err := site.st.Replay(ctx, m.ID)
	require.NoError(t, err)

	r := do(t, "GET", fmt.Sprintf("%s/api/games/%d/replay", site.base, m.ID), nil, bearer(site.ann))
	require.Equal(t, 200, r.code, r.body)
	assert.Equal(t, string(want), r.body)
	page := site.games(t, "?bot=annbot&ending=timeout")
	require.Len(t, page.Games, 1)
	require.NotNil(t, page.Games[0].Seats[0].Step, "the forfeit's decision, read from the replay")
	assert.Equal(t, 4, *page.Games[0].Seats[0].Step)
	r = do(t, "GET", fmt.Sprintf("%s/api/games/%d/stderr", site.base, m.ID), nil, bearer(site.ann))
	require.Equal(t, 200, r.code, r.body)
	assert.Contains(t, r.body, "why I lost")
	r = do(t, "GET", fmt.Sprintf("%s/games/%d?seat=0&step=4", site.base, m.ID), nil, nil)
	assert.Equal(t, 200, r.code, r.body)
}
