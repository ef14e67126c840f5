package service_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// TestHealthAndReadiness: /healthz answers while the process lives; /readyz answers
// ok while the store answers, and 503 once it does not (the cause logged, not told).
func TestHealthAndReadiness(t *testing.T) {
	site := newSite(t, service.Limits{})
	for _, path := range []string{"/healthz", "/readyz"} {
		r := do(t, "GET", site.base+path, nil, nil)
		assert.Equal(t, 200, r.code, path)
		assert.Equal(t, "ok\n", r.body, path)
	}
	require.NoError(t, site.st.Close())
	assert.Equal(t, 200, do(t, "GET", site.base+"/healthz", nil, nil).code, "alive without its database")
	r := do(t, "GET", site.base+"/readyz", nil, nil)
	assert.Equal(t, 503, r.code)
	assert.Equal(t, "not ready: the database does not answer\n", r.body)
	assert.Contains(t, site.log.String(), `msg="not ready: the store does not answer"`)
}

// TestEveryRequestIsLoggedAndCountedByRoute: the access log has a line per request
// (its ID, method, path, the route that served it, status); the request metrics
// carry the route's pattern, not the path, so game ids make no new series.
func TestEveryRequestIsLoggedAndCountedByRoute(t *testing.T) {
	site := newSite(t, service.Limits{})
	svc, err := service.New(site.cfg)
	require.NoError(t, err)
	reg := prometheus.NewRegistry()
	srv := httptest.NewServer(service.Instrument(svc.Handler(), reg))
	defer srv.Close()
	for _, path := range []string{"/healthz", "/games/7", "/games/8", "/no-such-page"} {
		do(t, "GET", srv.URL+path, nil, nil)
	}
	r := do(t, "GET", srv.URL+"/healthz", nil, nil)
	id := r.hdr.Get("X-Request-Id")
	require.Len(t, id, 16)
	assert.Regexp(t, `msg=request request=`+id+` addr=\S+ method=GET path=/healthz route="GET /healthz" status=200 bytes=3 ms=`, site.log.String())
	assert.Regexp(t, `path=/games/8 route="GET /games/{id}" status=404`, site.log.String())
	assert.Regexp(t, `path=/no-such-page route="" status=404`, site.log.String())
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(`
# HELP arena_http_requests_total Requests the ladder's web service answered, by route, status code and method.
# TYPE arena_http_requests_total counter
arena_http_requests_total{code="200",method="get",route="GET /healthz"} 2
arena_http_requests_total{code="404",method="get",route="GET /games/{id}"} 2
arena_http_requests_total{code="404",method="get",route=""} 1
`), "arena_http_requests_total"))
}

// TestReadyNeedsTheRunLock: over a PostgreSQL ladder whose run lock the service's
// process holds, /readyz answers ok until the lock's connection is dropped (as a
// server restart drops it), then 503.
func TestReadyNeedsTheRunLock(t *testing.T) {
	pgtest.Skip(t)
	url := pgtest.URL(t)
	pg, err := store.OpenPostgres(ctx, url, t.TempDir())
	require.NoError(t, err)
	defer pg.Close()
	unlock, err := pg.LockRun(ctx)
	require.NoError(t, err)
	defer unlock()
	log := &testkit.SyncBuffer{}
	svc, err := service.New(service.Config{Store: pg, Authors: pg, Game: "ivanhoe", LockHeld: pg.RunLockHeld, Log: slogTo(log),
		Submit: func(context.Context, string, string) (store.Bot, error) {
			return store.Bot{}, errors.New("no submissions here")
		}})
	require.NoError(t, err)
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	assert.Equal(t, 200, do(t, "GET", srv.URL+"/readyz", nil, nil).code)

	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var ended int
	require.NoError(t, conn.QueryRow(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND classid::bigint = x'6c616464'::bigint AND objid::bigint = hashtext(current_schema())::bigint & 4294967295`).Scan(&ended))
	require.Equal(t, 1, ended, "the run lock's connection")
	var r reply
	poll.Until(t, "the lock's backend to end", func() bool { // the termination is a signal to it
		r = do(t, "GET", srv.URL+"/readyz", nil, nil)
		return r.code != 200
	})
	assert.Equal(t, 503, r.code)
	assert.Equal(t, "not ready: the ladder's run lock is not held\n", r.body)
	assert.Contains(t, log.String(), "the run lock of")
}
