package service

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Instrument counts h's answers on reg as arena_http_requests_total{code, method} and
// times them as arena_http_request_duration_seconds{method}: the share of 5xx answers
// is what ArenaHTTPErrors watches. Methods outside HTTP's own are counted as
// "unknown", so a client cannot grow the series. If reg refuses the series (they are
// there already), h is returned as it is.
func Instrument(h http.Handler, reg prometheus.Registerer) http.Handler {
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_http_requests_total",
		Help: "Requests the ladder's web service answered, by status code and method."}, []string{"code", "method"})
	took := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_http_request_duration_seconds",
		Help:    "Time the ladder's web service took to answer a request, by method.",
		Buckets: prometheus.ExponentialBuckets(0.001, 4, 9)}, []string{"method"})
	for _, c := range []prometheus.Collector{requests, took} {
		if err := reg.Register(c); err != nil {
			return h
		}
	}
	return promhttp.InstrumentHandlerDuration(took, promhttp.InstrumentHandlerCounter(requests, h))
}
