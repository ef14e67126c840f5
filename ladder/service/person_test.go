package service_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// A person's game refuses what is not the person's to do: another author's game is
// not found, a choice at a step that is past or of an option that does not exist is
// a conflict, and the game takes the person's choice at their turn. A bot that does
// not start forfeits and the fallback plays its seat; ending the game ends its stream.
func TestAPersonsGameTakesOnlyThePersonsChoices(t *testing.T) {
	site := newSite(t, service.Limits{})
	site.cfg.Launch = func(store.Bot) (protocol.LaunchConfig, error) {
		return protocol.LaunchConfig{Path: "/nonexistent/bot"}, nil
	}
	site.cfg.Clock = arena.DefaultClock()
	site.start(t)
	t.Cleanup(site.svc.Close)
	bot, err := site.st.AddBot(ctx, store.Bot{Name: "left", SHA256: "sha-left", Builtin: "random"})
	require.NoError(t, err)
	ann, bob := map[string]string{"Cookie": site.session(t, site.ann)}, map[string]string{"Cookie": site.session(t, site.bob)}
	page := do(t, "GET", site.base+"/play", nil, ann)
	require.Equal(t, 200, page.code)
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page.body)
	require.NotNil(t, csrf, page.body)
	form := func(v url.Values) (*strings.Reader, map[string]string) {
		v.Set("csrf", csrf[1])
		return strings.NewReader(v.Encode()), map[string]string{"Cookie": ann["Cookie"], "Content-Type": "application/x-www-form-urlencoded"}
	}
	body, h := form(url.Values{"bot": {"999"}, "seat": {"0"}})
	assert.Equal(t, 400, do(t, "POST", site.base+"/play", body, h).code, "not a bot of the ladder")
	body, h = form(url.Values{"bot": {fmt.Sprint(bot.ID)}, "seat": {"0"}})
	started := do(t, "POST", site.base+"/play", body, h)
	require.Equal(t, http.StatusSeeOther, started.code, started.body)
	game := started.hdr.Get("Location")
	require.Regexp(t, `^/play/[0-9a-f]+$`, game)
	assert.Equal(t, 404, do(t, "GET", site.base+game, nil, bob).code, "another author's game")
	assert.Equal(t, 200, do(t, "GET", site.base+game, nil, ann).code)

	events, resp := readEvents(t, site.base+game+"/events", ann)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "game", next(t, events).kind)
	asked := -1
	forfeited := false
	for asked < 0 {
		ev := next(t, events)
		switch ev.kind {
		case "forfeit":
			forfeited = true
		case "step":
			var st struct {
				N     int `json:"n"`
				Asked *struct {
					Options []string `json:"options"`
				} `json:"asked"`
			}
			require.NoError(t, json.Unmarshal([]byte(ev.data), &st))
			if st.Asked != nil {
				asked = st.N
			}
		}
	}
	choose := func(step, option int) reply {
		body, h := form(url.Values{"step": {fmt.Sprint(step)}, "option": {fmt.Sprint(option)}})
		return do(t, "POST", site.base+game+"/choose", body, h)
	}
	assert.Equal(t, http.StatusConflict, choose(asked, 999).code)
	if asked > 0 {
		assert.Equal(t, http.StatusConflict, choose(asked-1, 0).code, "a step that is past")
	}
	assert.Equal(t, http.StatusNoContent, choose(asked, 0).code)
	ev := next(t, events)
	for ; ev.kind == "forfeit"; ev = next(t, events) {
		forfeited = true
	}
	assert.Equal(t, "step", ev.kind, "the game went on")
	body, h = form(url.Values{})
	assert.Equal(t, http.StatusSeeOther, do(t, "POST", site.base+game+"/end", body, h).code)
	for ev := next(t, events); ev.kind != "ended"; ev = next(t, events) {
		forfeited = forfeited || ev.kind == "forfeit"
	}
	assert.True(t, forfeited, "the bot that did not start forfeited")
	assert.Contains(t, do(t, "GET", site.base+"/play", nil, ann).body, "ended before its end")
}
