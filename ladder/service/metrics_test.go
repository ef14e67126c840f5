package service

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstrumentCountsAnswersByCode: requests over real HTTP, answered 200, 500 and by
// a method HTTP does not know, are counted by code and method; the odd method is
// "unknown", not a series of its own.
func TestInstrumentCountsAnswersByCode(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := Instrument(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			http.Error(w, "store failed", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}), reg)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, c := range []struct{ method, path string }{{"GET", "/"}, {"GET", "/"}, {"POST", "/broken"}, {"BREW", "/"}} {
		req, err := http.NewRequest(c.method, srv.URL+c.path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(`
# HELP arena_http_requests_total Requests the ladder's web service answered, by route, status code and method.
# TYPE arena_http_requests_total counter
arena_http_requests_total{code="200",method="get",route=""} 2
arena_http_requests_total{code="200",method="unknown",route=""} 1
arena_http_requests_total{code="500",method="post",route=""} 1
`), "arena_http_requests_total"))
	n, err := testutil.GatherAndCount(reg, "arena_http_request_duration_seconds")
	require.NoError(t, err)
	assert.Equal(t, 3, n, "get, post and unknown are timed")
}
