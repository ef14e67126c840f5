package tracing

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/arena-games/arena/arena"
)

// counting is an inner observer that counts what it is told.
type counting struct {
	mu                                   sync.Mutex
	starts, stops, matches, decs, finals int
}

func (c *counting) BotStarted(string, bool) { c.mu.Lock(); c.starts++; c.mu.Unlock() }
func (c *counting) BotStopped(string)       { c.mu.Lock(); c.stops++; c.mu.Unlock() }
func (c *counting) MatchStarted(string)     { c.mu.Lock(); c.matches++; c.mu.Unlock() }
func (c *counting) Decision(string, string, time.Duration) {
	c.mu.Lock()
	c.decs++
	c.mu.Unlock()
}
func (c *counting) MatchFinished(string, *arena.MatchResult, time.Duration, error) {
	c.mu.Lock()
	c.finals++
	c.mu.Unlock()
}

// TestABlockIsOneTrace plays a block's calls through the tracing observer into the
// SDK's in-memory exporter: one block span starting at the block's creation, a
// schedule span for its queue time, a game span per game with its decisions counted
// (from several goroutines) and timed, a record span per recording (a failed one
// marked), the bot starts as events; and the observer it wraps hears everything.
func TestABlockIsOneTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	Use(tp)
	defer Use(nil)
	created := time.Now().Add(-3 * time.Second)
	_, b := Block(context.Background(), 7, "ivanhoe", created, []string{"random", "heuristic"})
	require.NotNil(t, b)
	inner := &counting{}
	obs := b.Observer(inner)
	record := Record(b, func(n int) error {
		if n == 2 {
			return errors.New("disk full")
		}
		return nil
	})
	obs.BotStarted("random", false)
	obs.BotStarted("heuristic", true)
	for game := range 2 {
		obs.MatchStarted("ivanhoe")
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() { obs.Decision("ivanhoe", "random", time.Millisecond) })
		}
		wg.Wait()
		obs.Decision("ivanhoe", "heuristic", 5*time.Millisecond)
		obs.MatchFinished("ivanhoe", &arena.MatchResult{Rotation: game}, time.Second, nil)
		_ = record(game + 1)
	}
	b.End(nil)

	spans := exp.GetSpans()
	byName := map[string][]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	require.Len(t, byName["block"], 1)
	block := byName["block"][0]
	assert.Equal(t, created.UnixNano(), block.StartTime.UnixNano(), "the block's trace starts when it was queued")
	require.Len(t, byName["schedule"], 1)
	assert.Equal(t, created.UnixNano(), byName["schedule"][0].StartTime.UnixNano())
	require.Len(t, byName["game"], 2)
	require.Len(t, byName["record"], 2)
	for _, s := range spans {
		if s.Name != "block" {
			assert.Equal(t, block.SpanContext.SpanID(), s.Parent.SpanID(), "%s is a child of the block", s.Name)
			assert.Equal(t, block.SpanContext.TraceID(), s.SpanContext.TraceID())
		}
	}
	for i, g := range byName["game"] {
		attrs := map[string]any{}
		for _, a := range g.Attributes {
			attrs[string(a.Key)] = a.Value.AsInterface()
		}
		assert.Equal(t, int64(11), attrs["arena.decisions"], "game %d", i)
		assert.InDelta(t, 0.015, attrs["arena.decision_seconds"], 1e-9)
		assert.Equal(t, "heuristic", attrs["arena.slowest_bot"])
		assert.Equal(t, int64(i), attrs["arena.rotation"])
	}
	assert.Equal(t, "Unset", byName["record"][0].Status.Code.String())
	assert.Equal(t, "Error", byName["record"][1].Status.Code.String(), "the failed recording is marked")
	var started []string
	for _, e := range block.Events {
		started = append(started, e.Name)
	}
	assert.Equal(t, []string{"bot started", "bot started"}, started)
	assert.Equal(t, counting{starts: 2, matches: 2, decs: 22, finals: 2}, counting{starts: inner.starts, matches: inner.matches, decs: inner.decs, finals: inner.finals})
}

// TestOffCostsNothing: with tracing off, a block's hooks hand back what they were
// given and allocate nothing.
func TestOffCostsNothing(t *testing.T) {
	Use(nil)
	inner := &counting{}
	record := func(int) error { return nil }
	allocs := testing.AllocsPerRun(100, func() {
		ctx, b := Block(context.Background(), 1, "ivanhoe", time.Time{}, nil)
		_ = ctx
		if b.Observer(inner) != arena.Observer(inner) {
			t.Fatal("the observer is wrapped while off")
		}
		_ = Record(b, record)
		b.End(nil)
	})
	assert.Zero(t, allocs)
}

// BenchmarkBlockHooksOff is the cost of a block's hooks when tracing is off.
func BenchmarkBlockHooksOff(b *testing.B) {
	Use(nil)
	inner := &counting{}
	record := func(int) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		_, s := Block(context.Background(), 1, "ivanhoe", time.Time{}, nil)
		_ = s.Observer(inner)
		_ = Record(s, record)
		s.End(nil)
	}
}

// BenchmarkDecisionTraced is what tracing adds to each decision of a traced block:
// the count and timing on its game's span.
func BenchmarkDecisionTraced(b *testing.B) {
	Use(sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewInMemoryExporter())))
	defer Use(nil)
	_, s := Block(context.Background(), 1, "ivanhoe", time.Now(), nil)
	obs := s.Observer(&counting{})
	obs.MatchStarted("ivanhoe")
	b.ReportAllocs()
	for b.Loop() {
		obs.Decision("ivanhoe", "random", time.Microsecond)
	}
	obs.MatchFinished("ivanhoe", nil, time.Second, nil)
	s.End(nil)
}

// TestABadEndpointIsRefused: an endpoint the exporter would not take (it would send to
// its default instead) is an error that names it; a good one starts exporting.
func TestABadEndpointIsRefused(t *testing.T) {
	for _, bad := range []string{"collector:4317", "http://[::1", "ftp://collector:4317", "http://"} {
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", bad)
		_, err := Setup(context.Background(), "arena test")
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "OTEL_EXPORTER_OTLP_ENDPOINT=", bad)
		assert.False(t, Enabled())
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	stop, err := Setup(context.Background(), "arena test")
	require.NoError(t, err)
	assert.True(t, Enabled())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = stop(ctx) // nothing listens there: what was held is dropped
	assert.False(t, Enabled())
}
