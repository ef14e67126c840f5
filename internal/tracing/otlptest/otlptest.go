// Package otlptest is an OTLP/gRPC trace collector on loopback for tests: it keeps
// every span it is sent with its service's name.
package otlptest

import (
	"context"
	"net"
	"sync"
	"testing"

	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// Span is a span received, with the service.name of the process that sent it.
type Span struct {
	Service string
	*tracepb.Span
}

// Attr is the value of the span's attribute key (nil if it has none; its getters
// then give zero values).
func (s Span) Attr(key string) *commonpb.AnyValue {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return nil
}

// Receiver is the collector.
type Receiver struct {
	collector.UnimplementedTraceServiceServer
	// Endpoint is its URL, for OTEL_EXPORTER_OTLP_ENDPOINT.
	Endpoint string
	mu       sync.Mutex
	spans    []Span
}

// Start serves a receiver on loopback until t ends.
func Start(t testing.TB) *Receiver {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no loopback port for the OTLP receiver: %v", err)
	}
	srv := grpc.NewServer()
	r := &Receiver{Endpoint: "http://" + ln.Addr().String()}
	collector.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	return r
}

// Export keeps the spans of a request.
func (r *Receiver) Export(_ context.Context, req *collector.ExportTraceServiceRequest) (*collector.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				service = a.Value.GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, Span{service, s})
			}
		}
	}
	return &collector.ExportTraceServiceResponse{}, nil
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Traces groups the spans received by trace, each with its block span: the spans
// of traces whose block span has not arrived are left out.
func (r *Receiver) Traces() map[string]Trace {
	blocks := map[string]Trace{}
	spans := r.Spans()
	for _, s := range spans {
		if s.Name == "block" {
			blocks[string(s.TraceId)] = Trace{Block: s}
		}
	}
	for _, s := range spans {
		if tr, ok := blocks[string(s.TraceId)]; ok && s.Name != "block" {
			tr.Children = append(tr.Children, s)
			blocks[string(s.TraceId)] = tr
		}
	}
	return blocks
}

// Trace is one block's trace.
type Trace struct {
	Block    Span
	Children []Span
}

// Named are the trace's child spans named name.
func (tr Trace) Named(name string) []Span {
	var out []Span
	for _, s := range tr.Children {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}
