package metrics

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/internal/poll"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScrapesAreCappedAndTimedOut: with every scrape stuck in a collector, the server
// answers MaxScrapes of them at once and refuses the next with 503 at once, and a stuck
// scrape gets a 503 after ScrapeTimeout rather than hanging; once the collector
// answers again, so does /metrics.
func TestScrapesAreCappedAndTimedOut(t *testing.T) {
	entered, release := make(chan struct{}, 16), make(chan struct{})
	stuck := prometheus.NewRegistry()
	stuck.MustRegister(stuckCollector{entered, release})
	var once sync.Once
	unstick := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unstick)
	s, err := New(ModeMatch).Serve("127.0.0.1:0", stuck)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	url := "http://" + s.Addr + "/metrics"
	status := func() int {
		resp, err := (&http.Client{Timeout: time.Minute}).Get(url)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	codes := make(chan int, MaxScrapes)
	began := time.Now()
	for range MaxScrapes {
		go func() { codes <- status() }()
	}
	for range MaxScrapes {
		<-entered // every one is inside the stuck collector
	}
	assert.Equal(t, http.StatusServiceUnavailable, status(), "a scrape past the cap is refused")
	select {
	case <-entered:
		t.Fatal("the refused scrape reached the collector")
	default:
	}
	for range MaxScrapes {
		assert.Equal(t, http.StatusServiceUnavailable, <-codes, "a stuck scrape ends in 503")
	}
	assert.GreaterOrEqual(t, time.Since(began), ScrapeTimeout, "after the scrape timeout, not before")
	unstick()
	// The timed-out scrapes' handlers hold their places under the cap until the
	// collector lets them go, a moment after unstick: the next scrape may still find
	// the cap full, so poll (within poll's deadline) rather than ask once.
	poll.Until(t, "scrapes answer again once the collector does", func() bool { return status() == http.StatusOK })
}

// stuckCollector says when a scrape reaches it, then answers nothing until release
// is closed.
type stuckCollector struct{ entered, release chan struct{} }

func (stuckCollector) Describe(chan<- *prometheus.Desc) {}

func (c stuckCollector) Collect(chan<- prometheus.Metric) {
	c.entered <- struct{}{}
	<-c.release
}
