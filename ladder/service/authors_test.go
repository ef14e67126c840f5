package service_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
)

// browse follows links as a browser would, with the session's cookie.
type browse struct {
	t      *testing.T
	c      *http.Client
	base   string
	page   string
	status int
}

func (b *browse) open(path string) {
	b.t.Helper()
	resp, err := b.c.Get(b.base + strings.ReplaceAll(path, "&amp;", "&"))
	require.NoError(b.t, err)
	defer resp.Body.Close()
	page, err := io.ReadAll(resp.Body)
	require.NoError(b.t, err)
	b.page, b.status = string(page), resp.StatusCode
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

// links are the targets of the page's links that match re (its first group).
func (b *browse) links(re string) []string {
	var out []string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(b.page, -1) {
		out = append(out, m[1])
	}
	return out
}

// From her page, an author reaches the decision of each of her bot's forfeits in
// two clicks: the bot's page, then the forfeit, shown from her bot's seat at the
// decision where it happened.
func TestAuthorReachesEachForfeitInTwoClicks(t *testing.T) {
	site := newSite(t, service.Limits{})
	annbot, _, _, g := forfeitLadder(t, site)
	jar, _ := cookiejar.New(nil)
	b := &browse{t: t, c: &http.Client{Jar: jar}, base: site.base}
	r := site.login(t, site.ann, nil)
	require.Equal(t, http.StatusSeeOther, r.code)
	u := mustURL(t, site.base)
	jar.SetCookies(u, (&http.Response{Header: r.hdr}).Cookies())

	b.open("/me")
	bots := b.links(`<a href="(/bots/\d+)">annbot v1</a>`)
	require.Len(t, bots, 1, b.page)
	b.open(bots[0]) // click 1
	require.Equal(t, 200, b.status, b.page)
	steps := b.links(`<a class="step" href="([^"]+)"`)
	require.Len(t, steps, 3, "every forfeit of annbot: %s", b.page)
	want := map[int64]string{g[4].ID: "timeout", g[3].ID: "crash", g[1].ID: "timeout"}
	for _, step := range steps {
		m := regexp.MustCompile(`^/games/(\d+)\?seat=(\d)&amp;step=(\d+)$`).FindStringSubmatch(step)
		require.NotNil(t, m, step)
		b.open(step) // click 2
		require.Equal(t, 200, b.status, b.page)
		var id int64
		fmt.Sscan(m[1], &id)
		assert.Contains(t, b.page, fmt.Sprintf(`<span id="step">%s</span>`, m[3]), "at the forfeit's decision")
		assert.Contains(t, b.page, fmt.Sprintf("seat %s (annbot v1) forfeits: %s", m[2], want[id]), "the forfeit is told there")
		assert.Contains(t, b.page, fmt.Sprintf("<b>seat %s</b>", m[2]), "from annbot's point of view")
	}
	b.open(bots[0])
	all := b.links(`id="allforfeits" href="([^"]+)"`)
	require.Len(t, all, 1)
	assert.Equal(t, fmt.Sprintf("/games?bot=annbot&amp;ending=forfeit&amp;version=%d", annbot.Version), all[0])
}

// The nav says who is logged in and offers to log out; the author's page gives the
// limits in KiB and MiB.
func TestNavSaysWhoIsLoggedIn(t *testing.T) {
	site := newSite(t, service.Limits{})
	anon := do(t, "GET", site.base+"/", nil, nil)
	assert.Contains(t, anon.body, `<a href="/login">log in</a>`)
	assert.NotContains(t, anon.body, "log out")
	cookie := map[string]string{"Cookie": site.session(t, site.ann)}
	for _, p := range []string{"/", "/games", "/me", "/bots/999"} {
		r := do(t, "GET", site.base+p, nil, cookie)
		assert.Contains(t, r.body, `<span id="who">logged in as ann</span>`, p)
		assert.Contains(t, r.body, `<form method="post" action="/logout"><button id="logout">log out</button></form>`, p)
		assert.NotContains(t, r.body, `<a href="/login">log in</a>`, p)
	}
	me := do(t, "GET", site.base+"/me", nil, cookie)
	assert.Contains(t, me.body, "Limits: 64 MiB per program")
	out := do(t, "POST", site.base+"/logout", nil, cookie)
	require.Equal(t, http.StatusSeeOther, out.code)
	assert.Contains(t, do(t, "GET", site.base+"/", nil, cookie).body, `<a href="/login">log in</a>`, "the session is over")
}
