package tracing

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/tracing/otlptest"
)

// TestALadderRunExportsItsBlocksOverOTLP runs a real `arena ladder run` of two bots
// with OTEL_EXPORTER_OTLP_ENDPOINT naming a real OTLP/gRPC receiver on loopback: every
// block arrives as one trace under the service "arena ladder" (a block span with its
// game and bots, its schedule span, a game span per game with its decisions counted,
// a record span per recorded game, the bot starts as events), and the record spans
// account for every game the run added to the ladder's standings. The same run without
// the variable, before it, sends nothing.
func TestALadderRunExportsItsBlocksOverOTLP(t *testing.T) {
	dir, bin, db := ladderDir(t)
	run := func(env []string, args ...string) {
		cmd := exec.Command(bin, append(args, "--db", db)...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "arena %v: %s", args, out)
	}
	r := otlptest.Start(t)
	run(nil, "bot", "add", "random")
	run(nil, "bot", "add", "heuristic")
	run(nil, "ladder", "run", "--game", "ivanhoe", "--matches", "2")
	assert.Empty(t, r.Spans(), "no endpoint, no traces")
	before := seatsRecorded(t, bin, db)

	run([]string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + r.Endpoint}, "ladder", "run", "--game", "ivanhoe", "--matches", "2")
	traces := r.Traces()
	require.NotEmpty(t, traces)
	seats, games := 0, 0
	for _, tr := range traces {
		b := tr.Block
		assert.Equal(t, "arena ladder", b.Service)
		assert.Equal(t, "ivanhoe", b.Attr("arena.game").GetStringValue())
		bots := len(b.Attr("arena.bots").GetArrayValue().GetValues())
		assert.Equal(t, 2, bots)
		assert.NotEmpty(t, b.Events, "the bots' starts")
		assert.Len(t, tr.Named("schedule"), 1)
		for _, s := range tr.Children {
			assert.Equal(t, b.SpanId, s.ParentSpanId, "%s is a child of its block", s.Name)
		}
		for _, g := range tr.Named("game") {
			games++
			assert.Positive(t, g.Attr("arena.decisions").GetIntValue(), "a game asks decisions")
		}
		seats += bots * len(tr.Named("record"))
	}
	assert.Len(t, r.Spans(), len(traces)*2+games+seats/2, "every span is a block's: itself, its schedule, its games and records")
	assert.Positive(t, games)
	assert.Equal(t, seatsRecorded(t, bin, db)-before, seats, "the traced run's record spans account for every game it recorded")
}

// ladderDir builds the arena binary into a fresh folder and names a ladder database
// there.
func ladderDir(t *testing.T) (dir, bin, db string) {
	dir = t.TempDir()
	bin = filepath.Join(dir, "arena")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/arena").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir, bin, filepath.Join(dir, "club.db")
}

// seatsRecorded is the sum of the bots' games in the ladder's standings: a game of n
// bots counts n times.
func seatsRecorded(t *testing.T, bin, db string) int {
	n := 0
	for _, s := range testkit.Standings(t, bin, "ivanhoe", db) {
		n += s.Games
	}
	return n
}

// TestLadderServeTracesItsRequests runs a real `arena ladder serve` with
// OTEL_EXPORTER_OTLP_ENDPOINT naming a real OTLP/gRPC receiver, sends it requests and
// stops it: each request arrives as a server span of the service "arena ladder", named
// by the route that served it (GET /bots/{id}, never the bot's ID) with the route and
// status code as attributes, and a request no route serves by its method alone.
func TestLadderServeTracesItsRequests(t *testing.T) {
	dir, bin, db := ladderDir(t)
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(bin, "bot", "add", bot, "--db", db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	r := otlptest.Start(t)
	addr := testkit.FreeAddr(t)
	serve := exec.Command(bin, "ladder", "serve", "--db", db, "--game", "ivanhoe", "--addr", addr)
	serve.Dir, serve.Env = dir, append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+r.Endpoint)
	var stderr testkit.SyncBuffer
	serve.Stderr = &stderr
	require.NoError(t, serve.Start())
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	get := func(path string) int {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	require.True(t, poll.Within(time.Minute, func() bool { return get("/healthz") == 200 }), "the service answers: %s", stderr.String())
	sent := map[string][]int{"GET /healthz": {200, 200}, "GET /bots/{id}": {200, 404}, "GET": {404}}
	require.Equal(t, 200, get("/healthz"))
	require.Equal(t, 200, get("/bots/1"))
	require.Equal(t, 404, get("/bots/999999"))
	require.Equal(t, 404, get("/no/such/page"))
	require.NoError(t, serve.Process.Signal(os.Interrupt)) // the spans held are sent as it stops
	require.NoError(t, serve.Wait(), stderr.String())

	got := map[string][]int{}
	for _, s := range r.Spans() {
		if s.Kind != tracepb.Span_SPAN_KIND_SERVER {
			continue
		}
		assert.Equal(t, "arena ladder", s.Service)
		code := int(s.Attr("http.response.status_code").GetIntValue())
		got[s.Name] = append(got[s.Name], code)
		if s.Name != "GET" {
			assert.Equal(t, strings.TrimPrefix(s.Name, "GET "), s.Attr("http.route").GetStringValue(), "%s: its route", s.Name)
		}
		assert.NotContains(t, s.Name, "999999", "no ID in a span's name")
	}
	for name := range got {
		slices.Sort(got[name])
	}
	assert.Equal(t, sent, got, "a server span per request, named by its route, with its status code")
}
