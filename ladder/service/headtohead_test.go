package service_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// The bot page's head-to-head table gives each score with its interval and links to
// exactly the games of those two bots; the standings name each bot's owner.
func TestHeadToHeadLinksItsGamesAndStandingsShowOwners(t *testing.T) {
	site := newSite(t, service.Limits{})
	ann, err := site.st.AuthorByToken(ctx, service.HashToken(site.ann))
	require.NoError(t, err)
	require.NoError(t, site.st.Claim(ctx, ann.ID, "annbot"))
	var bots []store.Bot
	for _, name := range []string{"annbot", "left", "right"} {
		b, err := site.st.AddBot(ctx, store.Bot{Name: name, SHA256: "sha-" + name, Builtin: "random"})
		require.NoError(t, err)
		bots = append(bots, b)
	}
	now := time.Now()
	for i, pair := range [][2]int{{0, 1}, {1, 0}, {0, 1}, {0, 2}, {2, 0}, {1, 2}} {
		site.record(t, played{bots: []store.Bot{bots[pair[0]], bots[pair[1]]}, finished: now.Add(time.Duration(i) * time.Second)})
	}
	require.NoError(t, site.svc.Refit(ctx))

	page := do(t, "GET", fmt.Sprintf("%s/bots/%d", site.base, bots[0].ID), nil, nil)
	require.Equal(t, 200, page.code, page.body)
	rows := regexp.MustCompile(`(?s)<tr><td><a href="/bots/(\d+)">[^<]*</a></td><td>(\d+)</td><td>[\d.]+%</td><td>\[[\d.]+%, [\d.]+%\]</td>\s*<td><a href="([^"]+)">its games</a>`).FindAllStringSubmatch(page.body, -1)
	require.Len(t, rows, 2, page.body)
	for _, row := range rows {
		link := regexp.MustCompile(`&amp;`).ReplaceAllString(row[3], "&")
		var got struct {
			Games []service.GameJSON `json:"games"`
		}
		r := do(t, "GET", site.base+"/api"+link, nil, nil)
		require.Equal(t, 200, r.code, r.body)
		require.NoError(t, json.Unmarshal([]byte(r.body), &got))
		assert.Len(t, got.Games, map[string]int{fmt.Sprint(bots[1].ID): 3, fmt.Sprint(bots[2].ID): 2}[row[1]], "games of %s against bot %s", link, row[1])
		assert.Equal(t, fmt.Sprint(len(got.Games)), row[2], "the link has the meetings the row counts")
		for _, g := range got.Games {
			var ids []int64
			for _, s := range g.Seats {
				ids = append(ids, s.BotID)
			}
			assert.Contains(t, ids, bots[0].ID)
			assert.Contains(t, ids, must(row[1]))
		}
	}
	assert.Equal(t, 400, do(t, "GET", site.base+"/api/games?vs=left", nil, nil).code, "vs alone says whose games")
	assert.Equal(t, 404, do(t, "GET", site.base+"/api/games?bot=annbot&vs=nobody", nil, nil).code)

	standings := do(t, "GET", site.base+"/", nil, nil)
	assert.Regexp(t, `annbot v1</a></td><td>ann</td>`, standings.body)
	assert.Regexp(t, `left v1</a></td><td><span class="note">the operator</span></td>`, standings.body)
}

func must(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
