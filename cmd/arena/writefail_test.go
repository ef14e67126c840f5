package main

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// TestAFailedWriteIsLoggedAtOnce: a real ladder run whose SQLite database another
// connection holds locked for writing, once it plays, cannot record its next game: it
// says so in one error line as soon as the store gives up (its busy timeout, 10 s),
// counts the failed store call and the run's error on its metrics, and keeps them for
// its ten minutes' --metrics-linger, rather than printing the error when the linger
// ends.
func TestAFailedWriteIsLoggedAtOnce(t *testing.T) {
	dir := t.TempDir()
	db := clubLadder(t, dir)
	p := startProc(t, dir, "", "ladder", "run", "--game", "ivanhoe", "--db", db, "--metrics-addr", "127.0.0.1:0", "--metrics-linger", "10m")
	url := metricsURL(t, p)
	poll.Until(t, "the first games", func() bool { return strings.Contains(scrape(url), "arena_ladder_games_total{") })

	// The run writes between games; the lock waits out a write in progress (a busy
	// timeout of a minute: a write holds the file for milliseconds even when loaded)
	// instead of failing on it.
	lock, err := sql.Open("sqlite", "file:"+db+"?_busy_timeout=60000")
	require.NoError(t, err)
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE") // every other writer waits, then fails
	require.NoError(t, err)
	locked := time.Now()
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // the test is over either way

	// The store waits out its busy timeout (10 s) before it fails: a minute covers a
	// loaded machine; the linger is ten.
	const line = "the run stopped; the metrics linger"
	require.True(t, poll.Within(time.Minute, func() bool { return strings.Contains(p.text(), line) }), "the error line: %s", p.text())
	t.Logf("the failure was logged %s after the lock", time.Since(locked).Round(time.Millisecond))
	var logged string
	for _, l := range strings.Split(p.text(), "\n") {
		if strings.Contains(l, line) {
			logged = l
		}
	}
	assert.Contains(t, logged, "[ERROR]", "an error line")
	assert.Regexp(t, `locked|busy|BUSY`, logged, "it names the database's refusal")
	assert.False(t, p.exited(), "it lingers: %s", p.text())
	body := scrape(url)
	assert.Regexp(t, `arena_ladder_store_errors_total\{ladder="club",op="[a-z_]+"\} [1-9]`, arenaLines(body, "arena_ladder_store_errors_total"), "the failed store call is counted")
	assert.Contains(t, arenaLines(body, "arena_runs_stopped_total"), `arena_runs_stopped_total{ladder="club",reason="error"} 1`, "the run's end is served")
}
