package service_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
)

// A submission that fails, by its smoke test or on the server's side, does not keep
// its name against the author's limit of names; the author reads what their bot
// wrote to stderr, never the arena's account of it nor the server's error.
func TestFailedSubmissionFreesItsName(t *testing.T) {
	site := newSite(t, service.Limits{Bots: 1})
	r := site.submit(t, site.ann, "first", smokeFails)
	require.Equal(t, 400, r.code, r.body)
	assert.Contains(t, r.body, "bot first failed its smoke test: in a game of ivanhoe its seat ended with crash")
	assert.Contains(t, r.body, "\nboom\n", "the bot's own stderr")
	assert.NotContains(t, r.body, serverSecret, "the arena's account names a server path")

	r = site.submit(t, site.ann, "second", serverFails)
	require.Equal(t, 500, r.code, r.body)
	assert.NotContains(t, r.body, serverSecret)
	assert.NotContains(t, r.body, "no space")

	names, err := site.st.Owned(ctx, 1)
	require.NoError(t, err)
	assert.Empty(t, names, "failed submissions own no names")
	r = site.submit(t, site.ann, "third", "#!/bin/sh\n# a bot\n")
	require.Equal(t, 201, r.code, "the one name allowed is free: %s", r.body)
	r = site.submit(t, site.bob, "first", "#!/bin/sh\n# bob's bot\n")
	assert.Equal(t, 201, r.code, "ann's failed name is anyone's: %s", r.body)

	// A failed new version keeps the name of a bot that plays.
	r = site.submit(t, site.ann, "third", smokeFails)
	require.Equal(t, 400, r.code, r.body)
	names, err = site.st.Owned(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"third"}, names)
}

// One address may submit AddressSubmits times at once, whoever's tokens it holds;
// the next gets 429 with Retry-After before its body is read.
func TestSubmissionsPerAddressAreLimited(t *testing.T) {
	site := newSite(t, service.Limits{AddressSubmits: 3, PerDay: 100})
	for i, token := range []string{site.ann, site.bob, site.ann} {
		r := site.submit(t, token, "bot", smokeFails)
		require.Equal(t, 400, r.code, "submission %d: %s", i+1, r.body)
	}
	r := site.submit(t, site.bob, "other", "#!/bin/sh\n# a bot\n")
	assert.Equal(t, http.StatusTooManyRequests, r.code, r.body)
	assert.Contains(t, r.body, "3 submissions an hour from one address")
	// At 3 an hour one comes back in 20 minutes.
	wait, err := time.ParseDuration(r.hdr.Get("Retry-After") + "s")
	require.NoError(t, err)
	assert.InDelta(t, 20*time.Minute, wait, float64(time.Minute))
	assert.Equal(t, 200, do(t, "GET", site.base+"/api/bots", nil, bearer(site.bob)).code, "other requests go on")
	assert.False(t, strings.Contains(site.log.String(), "level=ERROR"), site.log.String())
}
