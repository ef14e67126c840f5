package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestABadOTLPEndpointIsOneErrorLine: an OTEL_EXPORTER_OTLP_ENDPOINT the exporter
// would not take stops a ladder command with one line that names it (the exporter
// would otherwise send to its default address), and leaves the commands that trace
// nothing alone.
func TestABadOTLPEndpointIsOneErrorLine(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317")
	r := runArena(t, dir, "ladder", "run", "--game", "ivanhoe", "--matches", "2", "--db", filepath.Join(dir, "l.db"))
	assert.NotEqual(t, 0, r.code)
	assert.Len(t, strings.Split(strings.TrimSpace(r.stderr), "\n"), 1, r.stderr)
	assert.Contains(t, r.stderr, `OTEL_EXPORTER_OTLP_ENDPOINT="collector:4317" is not an OTLP/gRPC endpoint`)
	requireNoLeftovers(t)
	r = runArena(t, dir, "match", "random", "random", "--games", "2", "--no-replays")
	assert.Equal(t, 0, r.code, "a match traces nothing: %s", r.stderr)
}
