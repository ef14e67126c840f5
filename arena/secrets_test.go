package arena

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// The thief is a bot that does with what the arena sends it (its seed, the match id
// naming the deal and the rotation, its seat) what a hostile author would:
//   - it inverts the derivation the arena used until this test existed (the bot's seed
//     was splitmix64's finaliser of the deal's seed and rotation<<8|seat: a bijection),
//   - it derives the deal from the run seeds a careless operator would use (0 and 1),
//     by the old derivation and the current one,
//   - it remembers every deal it met, to know an opponent's hand when it meets the deal
//     again in another seat.
//
// It writes its guesses to stderr, one line per match, for the test to judge against
// the real deals.
func serveThief(stderr io.Writer) {
	var mu sync.Mutex
	met := map[int]bool{}
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		var d, rot int
		if _, err := fmt.Sscanf(m.ID, "d%d-r%d", &d, &rot); err != nil {
			panic("thief: match id " + m.ID)
		}
		guesses := []uint64{unmixOld(m.Seed, uint64(rot)<<8|uint64(m.Seat))}
		for _, run := range []uint64{0, 1} {
			guesses = append(guesses, mixOld(run, uint64(d)), dealSeed(run, d))
		}
		mu.Lock()
		again := met[d]
		met[d] = true
		mu.Unlock()
		line := fmt.Sprintf("thief: deal %d rotation %d seat %d met-before %t guesses", d, rot, m.Seat, again)
		for _, g := range guesses {
			line += " " + strconv.FormatUint(g, 10)
		}
		fmt.Fprintln(stderr, line)
		return engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int { return 0 })
	})
}

// mixOld is the derivation the arena used before its seeds were one-way.
func mixOld(a, b uint64) uint64 {
	z := a + 0x9e3779b97f4a7c15*(b+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unmixOld finds a from mixOld(a, b) and b: each step of the finaliser can be undone.
func unmixOld(z, b uint64) uint64 {
	z = unshift(z, 31) * inverse(0x94d049bb133111eb)
	z = unshift(z, 27) * inverse(0xbf58476d1ce4e5b9)
	return unshift(z, 30) - 0x9e3779b97f4a7c15*(b+1)
}

// unshift undoes z ^= z>>k.
func unshift(z uint64, k uint) uint64 {
	x := z
	for s := k; s < 64; s += k {
		x = z ^ x>>k
	}
	return x
}

// inverse is c's multiplicative inverse modulo 2^64 (c odd), by Newton's iteration.
func inverse(c uint64) uint64 {
	x := c
	for range 6 {
		x *= 2 - c*x
	}
	return x
}

// TestTheThiefWouldHaveWonBefore: against the old derivation, the thief's inversion
// finds the deal from its seed alone, so TestNoBotLearnsTheDeal tests a real attack.
func TestTheThiefWouldHaveWonBefore(t *testing.T) {
	for _, deal := range []uint64{1, 42, 0xdeadbeefcafe, 1<<63 + 5} {
		for _, k := range []uint64{0, 1, 1<<8 | 2, 4<<8 | 5} {
			require.Equal(t, deal, unmixOld(mixOld(deal, k), k))
		}
	}
}

// thiefRun plays a few deals of game between thieves and returns, per match, the real
// deal seed, and the lines the thieves wrote.
func thiefRun(t *testing.T, game string, players int, seed uint64) (map[string]uint64, []string) {
	t.Helper()
	dir := t.TempDir()
	var entrants []Entrant
	for i := range players {
		entrants = append(entrants, testEntrant(t, fmt.Sprintf("thief%d", i), "thief"))
	}
	cfg := Config{Game: game, Launcher: protocol.Launcher{}, Entrants: entrants, Games: 3 * players, Seed: seed, Parallel: 2, Clock: fastClock,
		KeepMatches: true, StderrDir: dir, Sandbox: testSandbox(t, sandbox.None)}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	deals := map[string]uint64{}
	for _, m := range rep.Matches {
		deals[fmt.Sprintf("deal %d rotation %d", m.Deal, m.Rotation)] = m.Seed
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "stderr-*.log"))
	var lines []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		require.NoError(t, err)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "thief: ") {
				lines = append(lines, line)
			}
		}
	}
	require.Len(t, lines, len(rep.Matches)*players, "one line per seat of every match")
	return deals, lines
}

// found counts the thief's lines that guessed their match's deal, and those of a
// process that met its deal before.
func found(t *testing.T, deals map[string]uint64, lines []string) (guessed, metAgain int) {
	for _, line := range lines {
		var d, rot, seat int
		var again bool
		_, err := fmt.Sscanf(line, "thief: deal %d rotation %d seat %d met-before %t", &d, &rot, &seat, &again)
		require.NoError(t, err, line)
		real, ok := deals[fmt.Sprintf("deal %d rotation %d", d, rot)]
		require.True(t, ok, line)
		_, guesses, _ := strings.Cut(line, " guesses ")
		if slices.Contains(strings.Fields(guesses), strconv.FormatUint(real, 10)) {
			guessed++
		}
		if again {
			metAgain++
		}
	}
	return guessed, metAgain
}

// TestNoBotLearnsTheDeal: a bot given everything the arena sends finds no deal, in any
// game, with the run's seed the arena draws (as `arena match` without --seed); and no
// bot process meets a deal twice, so none can carry an opponent's hand from one
// rotation of a deal into the next. With a run seed of 1 (the old default) the same
// thief finds every deal: a guessable --seed gives the deals away, which is why the
// arena draws its own.
func TestNoBotLearnsTheDeal(t *testing.T) {
	for _, hg := range hostileGames {
		t.Run(hg.game, func(t *testing.T) {
			deals, lines := thiefRun(t, hg.game, hg.players, 0)
			guessed, metAgain := found(t, deals, lines)
			assert.Zero(t, guessed, "the thief found the deal")
			assert.Zero(t, metAgain, "a bot process met one deal in two seats")
		})
	}
	t.Run("a guessable seed", func(t *testing.T) {
		deals, lines := thiefRun(t, "ivanhoe", 2, 1)
		guessed, _ := found(t, deals, lines)
		assert.Equal(t, len(lines), guessed)
	})
}
