package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// playAs runs `arena play` with input typed on its standard input.
func playAs(t *testing.T, input string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "arena"), append([]string{"play"}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader(input)
	return runCmd(t, cmd)
}

// A person plays seat 1 of a Ninjas game against two random bot processes to the end,
// typing a wrong answer first and then the first option every time: each of its
// decisions shows its view and numbered options, a wrong answer is asked again, it
// never sees another seat's drawn card, the game ends with the places, and no bot
// process is left.
func TestPlayHumanAgainstBotsToTheEnd(t *testing.T) {
	r := playAs(t, "seven\n"+strings.Repeat("0\n", 5000), "--human", "1", "--game", "ninjas", "random", "random")
	require.Equal(t, 0, r.code, r.stderr)
	out := r.stdout
	assert.Contains(t, out, "you are seat 1; seat 0 is random#1, seat 2 is random#2")
	asked := strings.Count(out, "\nyour turn (seat 1)")
	assert.Positive(t, asked)
	assert.Len(t, regexp.MustCompile(`choose 0 to \d+: you: `).FindAllString(out, -1), asked, "each decision answered once")
	assert.Equal(t, asked, strings.Count(out, "  | hand: "), "each decision shows the seat's view")
	assert.Equal(t, 1, strings.Count(out, `"seven" is not an option: type a number from 0 to`))
	assert.Regexp(t, `(?m)^    0  \S`, out, "options are listed in words")
	assert.NotRegexp(t, `(?m)^  seat [02] draws an? [A-Z]`, out, "another seat's drawn card was shown")
	assert.Regexp(t, `(?m)^  seat 1 draws an? [A-Z]`, out, "the seat's own drawn cards are shown")
	assert.Regexp(t, regexp.MustCompile(`result:\n  seat 0 \(random#1\): place \d, score \d+\n  seat 1 \(you\): place \d`), out)
	poll.Until(t, "the bots to be gone", func() bool { return len(leftovers()) == 0 })
}

// Input that ends mid-game, a seat outside the game and no bots are one error line and
// a non-zero exit, with no bot left running.
func TestPlayHumanRefusesWhatItShould(t *testing.T) {
	for _, c := range []struct {
		input, want string
		args        []string
	}{
		{"0\n", "arena: standard input ended before the game did\n", []string{"--human", "0", "--game", "ninjas", "random"}},
		{"", "arena: --human 2: the seats are 0 to 1 (the person and 1 bots)\n", []string{"--human", "2", "--game", "ninjas", "random"}},
		{"", "arena: --human needs the bots of the other seats, e.g. `arena play --human 0 random`\n", []string{"--human", "0"}},
		{"", "arena: --players 4, but the person and 1 bots make 2\n", []string{"--human", "0", "--players", "4", "random"}},
		{"", "arena: unknown bot \"nobody\": not a built-in bot", []string{"--human", "0", "nobody"}},
	} {
		r := playAs(t, c.input, c.args...)
		assert.Equal(t, 1, r.code, "%v: %s", c.args, r.stderr)
		assert.True(t, strings.HasPrefix(r.stderr, c.want), "%v: %q", c.args, r.stderr)
		assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
	}
	poll.Until(t, "the bots to be gone", func() bool { return len(leftovers()) == 0 })
}
