package metrics

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	_ "github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/protocol"
)

// buildBot builds the standalone random bot once per test.
func buildBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "random-bot")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/bots/random").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// TestARealRunIsCounted plays a run between two real bot processes and checks every
// series against what happened.
func TestARealRunIsCounted(t *testing.T) {
	bin := buildBot(t)
	m := New(ModeMatch)
	m.SetBank(arena.DefaultClock.Bank)
	rep, err := arena.Run(context.Background(), arena.Config{
		Clock: arena.DefaultClock, Game: "ivanhoe", Games: 10, Seed: 3, Parallel: 2, Observer: m.Observer(), KeepMatches: true,
		Launcher: protocol.Launcher{},
		Entrants: []arena.Entrant{
			{Name: "alpha", Launch: protocol.LaunchConfig{Path: bin}},
			{Name: "beta", Launch: protocol.LaunchConfig{Path: bin}},
		},
	})
	require.NoError(t, err)
	games := float64(len(rep.Matches))
	decisions := 0
	for _, mr := range rep.Matches {
		decisions += mr.Decisions
	}
	assert.Equal(t, games, testutil.ToFloat64(m.MatchesStarted.WithLabelValues("ivanhoe")))
	assert.Equal(t, games, testutil.ToFloat64(m.MatchesFinished.WithLabelValues("ivanhoe", "complete")))
	assert.Equal(t, 0.0, testutil.ToFloat64(m.MatchesFinished.WithLabelValues("ivanhoe", "forfeit")))
	assert.Equal(t, 0.0, testutil.ToFloat64(m.MatchesInFlight.WithLabelValues("ivanhoe")))
	asked := testutil.ToFloat64(m.Decisions.WithLabelValues("ivanhoe", "alpha")) + testutil.ToFloat64(m.Decisions.WithLabelValues("ivanhoe", "beta"))
	assert.Equal(t, float64(decisions), asked, "every decision of every match was asked of a bot")
	for _, bot := range []string{"alpha", "beta"} {
		assert.Equal(t, 2.0, testutil.ToFloat64(m.BotStarts.WithLabelValues(bot)), "one process per seat")
		assert.Equal(t, 0.0, testutil.ToFloat64(m.BotRestarts.WithLabelValues(bot)))
		assert.Equal(t, 0.0, testutil.ToFloat64(m.BotProcesses.WithLabelValues(bot)), "stopped at the end")
		assert.Equal(t, games, testutil.ToFloat64(m.Endings.WithLabelValues(bot, "ok")))
		assert.Equal(t, 0.0, testutil.ToFloat64(m.Endings.WithLabelValues(bot, "timeout")), "exists at zero")
	}
	assert.Equal(t, 2, testutil.CollectAndCount(m.DecisionLatency), "one latency histogram per game and bot")
	assert.Equal(t, 2, testutil.CollectAndCount(m.BankUsed), "one bank-use histogram per game and bot")
	assert.Equal(t, float64(arena.DefaultClock.Bank.Seconds()), testutil.ToFloat64(m.Bank))
}
