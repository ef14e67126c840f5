package tracing

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// seatsRecorded is the sum of the bots' games in the ladder's standings: a game of n
// bots counts n times.
func seatsRecorded(t *testing.T, bin, db string) int {
	n := 0
	for _, s := range testkit.Standings(t, bin, "ivanhoe", db) {
		n += s.Games
	}
	return n
}
