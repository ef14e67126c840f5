package service_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

// The browser holds a random session ID, never the token; the session is the
// store's, so it outlives a restart of the service, and logging out ends it there
// (a copy of the old cookie lets nobody in).
func TestSessionCookieIsNotTheToken(t *testing.T) {
	site := newSite(t, service.Limits{})
	r := site.login(t, site.ann, nil)
	require.Equal(t, http.StatusSeeOther, r.code, r.body)
	cookies := (&http.Response{Header: r.hdr}).Cookies()
	require.Len(t, cookies, 1)
	c := cookies[0]
	assert.NotContains(t, c.Value, site.ann, "the cookie is not the token")
	assert.Len(t, c.Value, 43, "32 random bytes")
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
	assert.WithinDuration(t, time.Now().Add(service.DefaultLimits().Session), c.Expires, time.Minute, "sessions expire")
	_, err := site.st.SessionAuthor(ctx, c.Value)
	assert.ErrorIs(t, err, store.ErrNotFound, "the store keeps no session ID in the clear")
	cookie := map[string]string{"Cookie": c.Name + "=" + c.Value}
	me := do(t, "GET", site.base+"/me", nil, cookie)
	require.Equal(t, 200, me.code, me.body)
	assert.Contains(t, me.body, "ann's bots")

	site.start(t) // a new service on the same store, as after a restart
	assert.Equal(t, 200, do(t, "GET", site.base+"/me", nil, cookie).code, "the session outlives a restart")

	out := do(t, "POST", site.base+"/logout", nil, cookie)
	require.Equal(t, http.StatusSeeOther, out.code, out.body)
	assert.Contains(t, out.hdr.Get("Set-Cookie"), "Max-Age=0", "the browser drops its cookie")
	after := do(t, "GET", site.base+"/me", nil, cookie)
	assert.Equal(t, 401, after.code, "a copy of the cookie after logging out")
	assert.Contains(t, after.body, "session has ended")
	assert.Contains(t, after.hdr.Get("Set-Cookie"), "Max-Age=0", "a cookie that lets nobody in is dropped")
}

// A session lasts Limits.Session and no longer.
func TestSessionExpires(t *testing.T) {
	// Long enough for the first page to be asked for under load; the poll below waits
	// for it to run out.
	const life = 2 * time.Second
	site := newSite(t, service.Limits{Session: life})
	// The session's life starts at the login, inside site.session; the store keeps
	// its end in whole milliseconds, which may cut up to one off.
	start := time.Now()
	cookie := map[string]string{"Cookie": site.session(t, site.ann)}
	if me := do(t, "GET", site.base+"/me", nil, cookie); time.Since(start) < life {
		assert.Equal(t, 200, me.code, me.body)
	}
	require.True(t, poll.Within(time.Minute, func() bool { return do(t, "GET", site.base+"/me", nil, cookie).code == 401 }),
		"the session did not end")
	assert.GreaterOrEqual(t, time.Since(start), life-time.Millisecond, "it ended before its time")
}

// Rotating an author's token (arena author rotate) refuses the old token at once,
// by the API and by the login form, and ends the sessions it opened; the new token
// works.
func TestRotateEndsTheOldTokenAndSessions(t *testing.T) {
	site := newSite(t, service.Limits{})
	cookie := map[string]string{"Cookie": site.session(t, site.ann)}
	bobs := map[string]string{"Cookie": site.session(t, site.bob)}
	require.Equal(t, 200, do(t, "GET", site.base+"/api/bots", nil, bearer(site.ann)).code)

	fresh, err := service.NewToken()
	require.NoError(t, err)
	_, err = site.st.RotateToken(ctx, "ann", service.HashToken(fresh))
	require.NoError(t, err)

	assert.Equal(t, 401, do(t, "GET", site.base+"/api/bots", nil, bearer(site.ann)).code, "the old token by the API")
	assert.Equal(t, 401, site.login(t, site.ann, nil).code, "the old token by the login form")
	assert.Equal(t, 401, do(t, "GET", site.base+"/me", nil, cookie).code, "a session of the old token")
	assert.Equal(t, 200, do(t, "GET", site.base+"/api/bots", nil, bearer(fresh)).code, "the new token")
	assert.Equal(t, 200, do(t, "GET", site.base+"/me", nil, bobs).code, "another author's session")
	site.session(t, fresh)
}

// A login flood from one address gets 429 with Retry-After once its failures are
// spent, for a right token too (the address is not let on guessing), by the form
// and by the API; a successful login spends nothing.
func TestLoginFloodIsLimited(t *testing.T) {
	const failures = 5
	site := newSite(t, service.Limits{LoginFailures: failures})
	for range 3 {
		site.session(t, site.ann) // successes do not count
	}
	for i := range failures {
		r := site.login(t, "wrong-"+strings.Repeat("x", i), nil)
		require.Equal(t, 401, r.code, "failure %d: %s", i+1, r.body)
	}
	for _, r := range []reply{
		site.login(t, "wrong-again", nil),
		site.login(t, site.ann, nil),
		do(t, "GET", site.base+"/api/bots", nil, bearer("wrong")),
		do(t, "GET", site.base+"/api/bots", nil, bearer(site.bob)),
	} {
		assert.Equal(t, http.StatusTooManyRequests, r.code, r.body)
		assert.Contains(t, r.body, "too many failed logins")
		// At 5 an hour one comes back in 12 minutes.
		wait, err := time.ParseDuration(r.hdr.Get("Retry-After") + "s")
		require.NoError(t, err, "Retry-After %q", r.hdr.Get("Retry-After"))
		assert.InDelta(t, 12*time.Minute, wait, float64(time.Minute))
	}
	assert.Equal(t, 200, do(t, "GET", site.base+"/", nil, nil).code, "public pages are not limited")
}

// Good credentials spend none of the address's failures, however many come at once.
func TestManyGoodLoginsAtOnceAreNotLimited(t *testing.T) {
	site := newSite(t, service.Limits{LoginFailures: 2})
	var wg sync.WaitGroup
	codes := make([]int, 16)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = do(t, "GET", site.base+"/api/bots", nil, bearer(site.ann)).code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		assert.Contains(t, []int{200, 503}, c, "request %d", i) // 503: more than the slots at once
	}
	assert.Contains(t, codes, 200)
}
