package service

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Trace makes a span of each request h answers, through the global tracer provider
// (package tracing sets it when OTEL_EXPORTER_OTLP_ENDPOINT is set; wrap h only then,
// so that an untraced service pays nothing). A span is named by the route that served
// the request, the pattern such as `GET /games/{id}`, never by its path: names stay
// few and carry no IDs. A request no route served is named by its method alone. The
// span carries the route as http.route beside otelhttp's method, status code and
// sizes.
func Trace(h http.Handler) http.Handler {
	named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, seen := withRouteSeen(r)
		h.ServeHTTP(w, r)
		if seen.pattern != "" {
			span := trace.SpanFromContext(r.Context())
			span.SetName(spanName(r.Method, seen.pattern))
			span.SetAttributes(attribute.String("http.route", routePath(seen.pattern)))
		}
	})
	return otelhttp.NewHandler(named, "request", otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string {
		return r.Method
	}))
}

// spanName is the pattern, with the method in front when the pattern names none.
func spanName(method, pattern string) string {
	if strings.HasPrefix(pattern, "/") {
		return method + " " + pattern
	}
	return pattern
}

// routePath is a pattern's path, without its method (http.route holds the path).
func routePath(pattern string) string {
	if i := strings.IndexByte(pattern, ' '); i >= 0 && !strings.HasPrefix(pattern, "/") {
		return pattern[i+1:]
	}
	return pattern
}

// withRouteSeen asks the service to tell which route serves r: the layer outside
// that already asked (metrics inside traces, say) shares its answer.
func withRouteSeen(r *http.Request) (*http.Request, *routeSeen) {
	if rt, ok := r.Context().Value(routeKey{}).(*routeSeen); ok {
		return r, rt
	}
	rt := &routeSeen{}
	return r.WithContext(context.WithValue(r.Context(), routeKey{}, rt)), rt
}
