package tracing

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// receiver is an OTLP/gRPC trace collector on loopback that keeps what it is sent.
type receiver struct {
	collector.UnimplementedTraceServiceServer
	mu      sync.Mutex
	service []string
	spans   []*tracepb.Span
}

func (r *receiver) Export(_ context.Context, req *collector.ExportTraceServiceRequest) (*collector.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				r.service = append(r.service, a.Value.GetStringValue())
			}
		}
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &collector.ExportTraceServiceResponse{}, nil
}

func (r *receiver) received() ([]string, []*tracepb.Span) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.service...), append([]*tracepb.Span(nil), r.spans...)
}

func startReceiver(t *testing.T) (*receiver, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer()
	r := &receiver{}
	collector.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	return r, ln.Addr().String()
}

// TestALadderRunExportsItsBlocksOverOTLP runs a real `arena ladder run` of two bots
// with OTEL_EXPORTER_OTLP_ENDPOINT naming a real OTLP/gRPC receiver on loopback: every
// block arrives as one trace under the service "arena ladder" (a block span with its
// game and bots, its schedule span, a game span per game with its decisions counted,
// a record span per recorded game, the bot starts as events), and the record spans
// account for every game the run added to the ladder's standings. The same run without
// the variable, before it, sends nothing.
func TestALadderRunExportsItsBlocksOverOTLP(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "arena")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/arena").CombinedOutput()
	require.NoError(t, err, "%s", out)
	db := filepath.Join(dir, "club.db")
	run := func(env []string, args ...string) {
		cmd := exec.Command(bin, append(args, "--db", db)...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "arena %v: %s", args, out)
	}
	r, addr := startReceiver(t)
	run(nil, "bot", "add", "random")
	run(nil, "bot", "add", "heuristic")
	run(nil, "ladder", "run", "--game", "ivanhoe", "--matches", "2")
	_, spans := r.received()
	assert.Empty(t, spans, "no endpoint, no traces")
	before := seatsRecorded(t, bin, db)

	run([]string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + addr}, "ladder", "run", "--game", "ivanhoe", "--matches", "2")
	services, spans := r.received()
	require.NotEmpty(t, spans)
	assert.Contains(t, services, "arena ladder")
	blocks := map[string]*tracepb.Span{}
	for _, s := range spans {
		if s.Name == "block" {
			blocks[string(s.TraceId)] = s
		}
	}
	require.NotEmpty(t, blocks)
	seats, games := 0, 0
	for _, s := range spans {
		block := blocks[string(s.TraceId)]
		require.NotNil(t, block, "span %s belongs to a block's trace", s.Name)
		if s.Name == "block" {
			assert.Equal(t, "ivanhoe", attr(s, "arena.game").GetStringValue())
			assert.Len(t, attr(s, "arena.bots").GetArrayValue().GetValues(), 2)
			assert.NotEmpty(t, s.Events, "the bots' starts")
			continue
		}
		assert.Equal(t, block.SpanId, s.ParentSpanId, "%s is a child of its block", s.Name)
		switch s.Name {
		case "game":
			games++
			assert.Positive(t, attr(s, "arena.decisions").GetIntValue(), "a game asks decisions")
		case "record":
			seats += len(attr(block, "arena.bots").GetArrayValue().GetValues())
		}
	}
	assert.Positive(t, games)
	assert.Equal(t, seatsRecorded(t, bin, db)-before, seats, "the traced run's record spans account for every game it recorded")
}

// attr is the value of the span's attribute key (an empty value if it has none).
func attr(s *tracepb.Span, key string) *commonpb.AnyValue {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return nil
}

// seatsRecorded is the sum of the bots' games in the ladder's standings: a game of n
// bots counts n times.
func seatsRecorded(t *testing.T, bin, db string) int {
	out, err := exec.Command(bin, "ladder", "standings", "--json", "--game", "ivanhoe", "--db", db).Output()
	require.NoError(t, err)
	var tables []struct {
		Standings []struct {
			Games int `json:"games"`
		} `json:"standings"`
	}
	require.NoError(t, json.Unmarshal(out, &tables), "%s", out)
	require.Len(t, tables, 1)
	n := 0
	for _, s := range tables[0].Standings {
		n += s.Games
	}
	return n
}
