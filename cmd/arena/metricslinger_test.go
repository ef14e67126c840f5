package main

import (
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

// scrape reads a process's /metrics; "" while it does not answer.
func scrape(url string) string {
	resp, err := http.Get(url)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// arenaLines are the lines of a scrape that start with prefix.
func arenaLines(body, prefix string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// clubLadder makes the ladder club.db in dir, of random and heuristic, and returns
// its path.
func clubLadder(t *testing.T, dir string) string {
	db := dir + "/club.db"
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	return db
}

// metricsURL waits for a process to say where it serves its metrics.
func metricsURL(t *testing.T, p *proc) string {
	t.Helper()
	re := regexp.MustCompile(`metrics on (http://\S+/metrics)\n`)
	url := ""
	poll.Until(t, "the metrics' address", func() bool {
		m := re.FindStringSubmatch(p.text())
		if m != nil {
			url = m[1]
		}
		return m != nil
	})
	return url
}

// TestMetricsLingerAfterAnInterrupt: a run stopped by the user keeps serving its
// metrics for --metrics-linger, now saying how it ended, and a second signal still
// quits at once. A match stopped by Ctrl-C (SIGINT) and a ladder run stopped by
// systemd (SIGTERM), each a real process: without the linger the scrape after the
// signal finds no server, without the final values it finds no interrupted run.
func TestMetricsLingerAfterAnInterrupt(t *testing.T) {
	dir := t.TempDir()
	db := clubLadder(t, dir)
	for _, c := range []struct {
		name   string
		sig    syscall.Signal
		args   []string
		labels string // of the run's series
		done   string // the series saying it finished
	}{
		{"match on Ctrl-C", syscall.SIGINT, []string{"match", "heuristic", "random", "--games", "100000", "-j", "2", "--no-replays"}, "",
			"arena_run_finished 1"},
		{"ladder on SIGTERM", syscall.SIGTERM, []string{"ladder", "run", "--game", "ivanhoe", "--db", db}, `ladder="club",`,
			`arena_run_finished{ladder="club"} 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := startProc(t, dir, "", append(c.args, "--metrics-addr", "127.0.0.1:0", "--metrics-linger", "10m")...)
			url := metricsURL(t, p)
			// Interrupt it once it plays (its first decisions are counted).
			poll.Until(t, "the first decisions", func() bool { return strings.Contains(scrape(url), "arena_decisions_total{") })
			require.NoError(t, p.cmd.Process.Signal(c.sig))
			poll.Until(t, "the linger after the interrupt", func() bool { return strings.Contains(p.text(), "serving metrics on") })
			body := arenaLines(scrape(url), "arena_run")
			assert.Contains(t, body, `arena_runs_stopped_total{`+c.labels+`reason="interrupted"} 1`, "how the run ended is served")
			assert.Contains(t, body, c.done)
			assert.Contains(t, arenaLines(scrape(url), "arena_matches_finished"), `arena_matches_finished_total{game="ivanhoe",`+c.labels+`outcome="aborted"}`,
				"the match series are still there")
			assert.Contains(t, p.text(), "Ctrl-C again to stop")
			assert.False(t, p.exited(), "it lingers: %s", p.text())

			// The second signal, past GNU timeout's window of one, ends it at once.
			time.Sleep(sameSignal) // the window is the point here, not a wait for an event
			began := time.Now()
			require.NoError(t, p.cmd.Process.Signal(c.sig))
			select {
			case <-p.done:
			case <-time.After(30 * time.Second): // a linger of 10 minutes would not end
				t.Fatalf("still lingering after a second signal: %s", p.text())
			}
			err := p.cmd.Wait()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, exitInterrupted, ee.ExitCode(), p.text())
			t.Logf("the second signal ended it in %s", time.Since(began).Round(time.Millisecond))
			assert.Empty(t, scrape(url), "nothing serves after the exit")
		})
	}
}

// TestWorkerSaysWhyItStopped: a real worker of a PostgreSQL ladder, stopped by
// systemd's SIGTERM, lingers with its stop reason and a clean end on its series
// (labelled with its ladder and worker ID), and the next SIGTERM ends it at once.
func TestWorkerSaysWhyItStopped(t *testing.T) {
	db := pgtest.URL(t)
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir+"/cache")
	for _, b := range []string{"random", "heuristic"} {
		r := runArena(t, dir, "bot", "add", b, "--db", db)
		require.Equal(t, 0, r.code, r.stderr)
	}
	co := startProc(t, dir, "", "ladder", "serve", "--game", "ivanhoe", "--addr", "127.0.0.1:0", "--db", db, "--refresh", "1s")
	w := startProc(t, dir, "", "worker", "--db", db, "-j", "1", "--ladder-name", "club", "--metrics-addr", "127.0.0.1:0", "--metrics-linger", "10m")
	url := metricsURL(t, w)
	require.True(t, poll.Within(time.Minute, func() bool { return strings.Contains(w.text(), "worker playing ") }), w.text())
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGTERM))
	poll.Until(t, "the worker's linger", func() bool { return strings.Contains(w.text(), "serving metrics on") })
	body := arenaLines(scrape(url), "arena_run")
	assert.Regexp(t, `arena_runs_stopped_total\{ladder="club",reason="interrupted",worker="\d+"\} 1`, body)
	assert.Regexp(t, `arena_run_finished\{ladder="club",worker="\d+"\} 1`, body)
	assert.Contains(t, w.text(), "worker stopped;")

	time.Sleep(sameSignal) // past the window in which a second signal is the first one again
	require.NoError(t, w.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-w.done:
	case <-time.After(30 * time.Second): // a linger of 10 minutes would not end
		t.Fatalf("still lingering after a second SIGTERM: %s", w.text())
	}
	_ = w.cmd.Wait() // 0 when the linger ends first, 130 when the second signal's quit does
	assert.Empty(t, scrape(url), "nothing serves after the exit")
	co.stop(t, "coordinating the")
}
