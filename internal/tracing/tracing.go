// Package tracing exports OpenTelemetry traces of the ladder's blocks over OTLP/gRPC
// when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and
// nothing otherwise. A block is one trace: its time in the queue (schedule), the bot
// processes it started, each game with its decisions counted and timed, and each
// recording of a game. Decisions are counted on their game's span rather than a span
// each: a block asks thousands of them. Off, a block costs one load of a flag. The web
// service's requests are traced through the same provider (service.Trace), wrapped in
// only when Enabled.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/arena-games/arena/arena"
)

// on is set while spans are exported: Block checks it first so that a process that
// exports none pays nothing more.
var on atomic.Bool

// tracer is the tracer of the blocks' spans, the global provider's.
func tracer() trace.Tracer { return otel.Tracer("github.com/arena-games/arena/ladder") }

// Configured reports whether the environment names an OTLP endpoint for traces.
func Configured() bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup exports the process's spans over OTLP/gRPC to the endpoint the environment
// names (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables: endpoint,
// headers, TLS, timeout), naming the process service (its mode, "arena worker" say).
// Without an endpoint it does nothing. The returned stop sends the spans still held
// and stops exporting; call it before the process ends.
func Setup(ctx context.Context, service string) (stop func(context.Context) error, err error) {
	if !Configured() {
		return func(context.Context) error { return nil }, nil
	}
	if err := checkEndpoints(); err != nil {
		return nil, err
	}
	exp, err := otlptracegrpc.New(ctx)
	if err != nil {
		return nil, err
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	on.Store(true)
	return func(ctx context.Context) error {
		on.Store(false)
		return tp.Shutdown(ctx)
	}, nil
}

// Use exports spans through tp (a test's in-memory provider); nil stops.
func Use(tp trace.TracerProvider) {
	if tp != nil {
		otel.SetTracerProvider(tp)
	}
	on.Store(tp != nil)
}

// checkEndpoints refuses an endpoint that is not a URL the exporter takes: it would
// send to its default (localhost:4317) instead, with no word said.
func checkEndpoints() error {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "unix") || (u.Scheme != "unix" && u.Host == "") {
			return fmt.Errorf("%s=%q is not an OTLP/gRPC endpoint such as http://collector:4317", name, v)
		}
	}
	return nil
}

// Enabled reports whether blocks are traced.
func Enabled() bool { return on.Load() }

// BlockSpan is the span of one block being played.
type BlockSpan struct {
	ctx  context.Context
	span trace.Span
}

// Block starts the trace of block id of game, created (queued) at created, with the
// bots' names in its seat order: the block's span starts at created, with a schedule
// span for its time in the queue. It is nil when tracing is off; a nil BlockSpan's
// methods pass everything through.
func Block(ctx context.Context, id int64, game string, created time.Time, bots []string) (context.Context, *BlockSpan) {
	if !on.Load() {
		return ctx, nil
	}
	start := created
	if start.IsZero() || start.After(time.Now()) {
		start = time.Now()
	}
	ctx, span := tracer().Start(ctx, "block", trace.WithTimestamp(start), trace.WithAttributes(
		attribute.Int64("arena.block", id), attribute.String("arena.game", game), attribute.StringSlice("arena.bots", bots)))
	_, queued := tracer().Start(ctx, "schedule", trace.WithTimestamp(start))
	queued.End()
	return ctx, &BlockSpan{ctx: ctx, span: span}
}

// End ends the block's span with the block's outcome.
func (b *BlockSpan) End(err error) {
	if b == nil {
		return
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		b.span.RecordError(err)
		b.span.SetStatus(codes.Error, err.Error())
	}
	b.span.End()
}

// Record wraps the function that records a game: each call is a record span.
func Record[M any](b *BlockSpan, record func(M) error) func(M) error {
	if b == nil {
		return record
	}
	return func(m M) error {
		_, span := tracer().Start(b.ctx, "record")
		err := record(m)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
		return err
	}
}

// Observer wraps a block's runner observer: bot starts become events of the block's
// span and each game a span of its own with its decisions counted.
func (b *BlockSpan) Observer(inner arena.Observer) arena.Observer {
	if b == nil {
		return inner
	}
	return &observer{Observer: inner, b: b}
}

// observer adds the block's spans to the calls of the observer it wraps. A block
// plays one game at a time, so one game span is open at most; decisions may be
// reported from the seats' goroutines, hence the lock.
type observer struct {
	arena.Observer
	b *BlockSpan

	mu        sync.Mutex
	game      trace.Span
	decisions int
	spent     time.Duration
	slowest   time.Duration
	slowBot   string
}

func (o *observer) BotStarted(bot string, restart bool) {
	if o.Observer != nil {
		o.Observer.BotStarted(bot, restart)
	}
	o.b.span.AddEvent("bot started", trace.WithAttributes(attribute.String("arena.bot", bot), attribute.Bool("arena.restart", restart)))
}

func (o *observer) BotStopped(bot string) {
	if o.Observer != nil {
		o.Observer.BotStopped(bot)
	}
}

func (o *observer) MatchStarted(game string) {
	if o.Observer != nil {
		o.Observer.MatchStarted(game)
	}
	_, span := tracer().Start(o.b.ctx, "game", trace.WithAttributes(attribute.String("arena.game", game)))
	o.mu.Lock()
	o.game, o.decisions, o.spent, o.slowest, o.slowBot = span, 0, 0, 0, ""
	o.mu.Unlock()
}

func (o *observer) Decision(game, bot string, took time.Duration) {
	if o.Observer != nil {
		o.Observer.Decision(game, bot, took)
	}
	o.mu.Lock()
	o.decisions++
	o.spent += took
	if took > o.slowest {
		o.slowest, o.slowBot = took, bot
	}
	o.mu.Unlock()
}

func (o *observer) MatchFinished(game string, m *arena.MatchResult, took time.Duration, err error) {
	if o.Observer != nil {
		o.Observer.MatchFinished(game, m, took, err)
	}
	o.mu.Lock()
	span := o.game
	o.game = nil
	attrs := []attribute.KeyValue{attribute.Int("arena.decisions", o.decisions),
		attribute.Float64("arena.decision_seconds", o.spent.Seconds()),
		attribute.Float64("arena.slowest_decision_seconds", o.slowest.Seconds()), attribute.String("arena.slowest_bot", o.slowBot)}
	o.mu.Unlock()
	if span == nil {
		return
	}
	if m != nil {
		attrs = append(attrs, attribute.Int("arena.rotation", m.Rotation), attribute.Bool("arena.adjudicated", m.Adjudicated))
	}
	span.SetAttributes(attrs...)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
