package service

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Instrument counts h's answers on reg as arena_http_requests_total{route, code,
// method}, times them as arena_http_request_duration_seconds{route, method} and
// gauges those in flight (arena_http_requests_in_flight): the share of 5xx answers is
// what ArenaHTTPErrors watches. The route is the pattern that served the request
// (`GET /games/{id}`, "" when none did), so the series stay few whatever the paths;
// methods outside HTTP's own are counted as "unknown" for the same reason. If reg
// refuses the series (they are there already), h is returned as it is.
func Instrument(h http.Handler, reg prometheus.Registerer) http.Handler {
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arena_http_requests_total",
		Help: "Requests the ladder's web service answered, by route, status code and method."}, []string{"route", "code", "method"})
	took := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "arena_http_request_duration_seconds",
		Help:    "Time the ladder's web service took to answer a request, by route and method.",
		Buckets: prometheus.ExponentialBuckets(0.001, 4, 9)}, []string{"route", "method"})
	inFlight := prometheus.NewGauge(prometheus.GaugeOpts{Name: "arena_http_requests_in_flight",
		Help: "Requests the ladder's web service is answering now."})
	for _, c := range []prometheus.Collector{requests, took, inFlight} {
		if err := reg.Register(c); err != nil {
			return h
		}
	}
	route := promhttp.WithLabelFromCtx("route", func(ctx context.Context) string {
		if rt, ok := ctx.Value(routeKey{}).(*routeSeen); ok {
			return rt.pattern
		}
		return ""
	})
	counted := promhttp.InstrumentHandlerInFlight(inFlight,
		promhttp.InstrumentHandlerDuration(took, promhttp.InstrumentHandlerCounter(requests, h, route), route))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, _ = withRouteSeen(r)
		counted.ServeHTTP(w, r)
	})
}

// routeSeen is where the service tells an outer layer which route served a request:
// the mux sets the pattern on the request it was given, which a layer outside the
// service's own (they copy the request) does not see.
type routeSeen struct{ pattern string }

type routeKey struct{}

// tellRoute passes the pattern that served r to the layer that asked for it.
func tellRoute(r *http.Request) {
	if rt, ok := r.Context().Value(routeKey{}).(*routeSeen); ok {
		rt.pattern = r.Pattern
	}
}
