package logging

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
)

func TestJSONIsOneObjectPerLine(t *testing.T) {
	var out bytes.Buffer
	l, err := New(&out, "arena", "info", "json")
	require.NoError(t, err)
	l.Info("worker gone", "worker", 7, "host", "m1")
	l.Debug("not at info")
	l.Named("coordinator").Warn("a line\nwith a newline", "err", "x")
	got := testkit.JSONLines(t, out.String())
	require.Len(t, got, 2)
	assert.Equal(t, "worker gone", got[0]["@message"])
	assert.Equal(t, "info", got[0]["@level"])
	assert.Equal(t, "arena", got[0]["@module"])
	assert.EqualValues(t, 7, got[0]["worker"])
	assert.Equal(t, "arena.coordinator", got[1]["@module"])
	assert.Equal(t, "a line\nwith a newline", got[1]["@message"])
}

func TestBadLevelOrFormatIsAnError(t *testing.T) {
	_, err := New(&bytes.Buffer{}, "arena", "loud", "text")
	assert.EqualError(t, err, `--log-level "loud": want one of trace, debug, info, warn, error, off`)
	_, err = New(&bytes.Buffer{}, "arena", "info", "xml")
	assert.EqualError(t, err, `--log-format "xml": want one of text, json`)
}

// The slog view writes through the same logger: same format, same level, its
// attributes and groups as keys.
func TestSlogReachesTheSameLogger(t *testing.T) {
	var out bytes.Buffer
	l, err := New(&out, "arena", "info", "json")
	require.NoError(t, err)
	s := Slog(l.Named("river"))
	s.Debug("below the level")
	s.Info("started", "client_id", "c1")
	s.With("queue", "default").WithGroup("job").Warn("errored", slog.Int("id", 4), slog.Group("err", "text", "boom"))
	got := testkit.JSONLines(t, out.String())
	require.Len(t, got, 2)
	assert.Equal(t, map[string]any{"@message": "started", "@level": "info", "@module": "arena.river", "client_id": "c1",
		"@timestamp": got[0]["@timestamp"]}, got[0])
	assert.Equal(t, "warn", got[1]["@level"])
	assert.Equal(t, "default", got[1]["queue"])
	assert.EqualValues(t, 4, got[1]["job.id"])
	assert.Equal(t, "boom", got[1]["job.err.text"])

	assert.False(t, s.Enabled(t.Context(), slog.LevelDebug))
	assert.True(t, s.Enabled(t.Context(), slog.LevelInfo))
}

// Quieter moves a library's Info lines to Debug and leaves its warnings.
func TestQuieterKeepsHousekeepingForDebug(t *testing.T) {
	var out bytes.Buffer
	l, err := New(&out, "arena", "info", "text")
	require.NoError(t, err)
	q := Quieter(l)
	q.Info("River client started")
	assert.Empty(t, out.String(), "a library's Info is Debug")
	q.Warn("job failed")
	assert.Contains(t, out.String(), "[WARN]  arena: job failed")

	out.Reset()
	l.SetLevel(hclog.Debug)
	q.Info("River client started")
	assert.Contains(t, out.String(), "[DEBUG] arena: River client started")
}

// A progress line per interval with what happened in it; one line for an interval
// with nothing, then none until something happens.
func TestProgressIsALinePerInterval(t *testing.T) {
	r, w := io.Pipe()
	l, err := New(w, "arena", "info", "json")
	require.NoError(t, err)
	p := StartProgress(t.Context(), l, 5*time.Millisecond, "games recorded")
	next := json.NewDecoder(r)
	line := func() map[string]any {
		var o map[string]any
		require.NoError(t, next.Decode(&o))
		return o
	}
	p.Add(3)
	got := line()
	assert.Equal(t, "games recorded", got["@message"])
	assert.EqualValues(t, 3, got["new"])
	assert.EqualValues(t, 3, got["total"])
	got = line()
	assert.EqualValues(t, 0, got["new"], "an idle interval says so once")
	p.Add(2) // after the idle line: the next line says 2 more, whenever it comes
	got = line()
	assert.EqualValues(t, 2, got["new"])
	assert.EqualValues(t, 5, got["total"])
}
