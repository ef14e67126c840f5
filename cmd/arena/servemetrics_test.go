package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// TestServeCountsItsAnswers: a real `arena ladder serve` with metrics counts the web
// service's answers by code, beside its ladder's series: a page that exists is a 200,
// one that does not a 404.
func TestServeCountsItsAnswers(t *testing.T) {
	dir := t.TempDir()
	db := clubLadder(t, dir)
	p := startProc(t, dir, "", "ladder", "serve", "--game", "ivanhoe", "--addr", "127.0.0.1:0", "--db", db,
		"--metrics-addr", "127.0.0.1:0")
	metrics := metricsURL(t, p)
	site := regexp.MustCompile(`ladder on (http://\S+/)\n`)
	var base string
	poll.Until(t, "the service's address", func() bool {
		m := site.FindStringSubmatch(p.text())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	for _, path := range []string{"", "no-such-page"} {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		resp.Body.Close()
	}
	want := []string{`arena_http_requests_total{code="200",ladder="club",method="get",route="GET /{$}"} 1`,
		`arena_http_requests_total{code="404",ladder="club",method="get",route=""} 1`}
	poll.Until(t, "the answers counted", func() bool {
		got := arenaLines(scrape(metrics), "arena_http_requests_total")
		return strings.Contains(got, want[0]) && strings.Contains(got, want[1])
	})
	p.stop(t, "serving the")
}
