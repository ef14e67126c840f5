package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryForfeitExplainsItself: `arena match` says why a seat forfeited, in words,
// where an author looks first (no replay opened), with the command that shows the
// decision; and that command shows it.
func TestEveryForfeitExplainsItself(t *testing.T) {
	dir := t.TempDir()
	bot := buildTestdataBot(t, dir, "badbot")
	require.NoError(t, os.Chmod(dir, 0o755)) // bots run as users of their own
	// The clock is the default's: room for the well-behaved decisions on a loaded
	// machine, and the timeout's wait is only a second.
	for _, c := range []struct{ mode, want string }{
		{"illegal", `illegal: chose option 9999 of \d+`},
		{"timeout", `timeout: no answer before the deadline of 1050.0 ms \(1000.0 ms, grace 50.0 ms\): waited [\d.]+ ms`},
		{"crash", `crash: the bot process exited \(its stderr ends: "badbot: boom, on purpose"\)`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			named := bot + "-" + c.mode
			require.NoError(t, os.Link(bot, named))
			r := runArena(t, dir, "match", "random", named, "--games", "2", "--decision", "1s", "--grace", "50ms",
				"--max-restarts", "5", "--replays", "r-"+c.mode)
			require.Equal(t, 0, r.code, r.stderr)
			requireNoLeftovers(t)
			line := regexp.MustCompile(`forfeit: badbot-` + c.mode + `, seat (\d) of (d\d+-r\d), decision (\d+): ` + c.want)
			assert.Regexp(t, line, r.stderr)
			see := regexp.MustCompile(`see it: arena replay (\S+) --seat (\d) --at (\d+)`).FindStringSubmatch(r.stderr)
			require.NotNil(t, see, r.stderr)
			rr := runArena(t, dir, "replay", see[1], "--seat", see[2], "--at", see[3])
			require.Equal(t, 0, rr.code, rr.stderr)
			assert.Regexp(t, `(?m)^\*\* seat `+see[2]+` forfeits at decision `+see[3]+`: `+c.mode, rr.stdout)
			assert.NotContains(t, rr.stdout, "(the seat's 1st)", "decisions before --at are passed over")
		})
	}
}
