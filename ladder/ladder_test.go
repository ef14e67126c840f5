package ladder

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/ladder/store"
)

var ctx = context.Background()

// fakePlayer plays a block without processes: a seat's place comes from its bot's
// strength (by name) plus noise seeded by the deal and rotation. It reports every
// rotation, done or not, as a runner that cannot skip rotations would.
type fakePlayer struct {
	strength map[string]float64
	// stopAfter, when positive, cancels the run after that many games were recorded
	// in total, as a kill in the middle of a block would.
	stopAfter int
	cancel    context.CancelFunc
	// hangs names a bot whose every seat ends in a timeout.
	hangs string

	mu       sync.Mutex
	recorded int
}

func (p *fakePlayer) PlayBlock(ctx context.Context, b store.Block, bots []store.Bot, record func(store.Match) error) error {
	n := len(bots)
	for rot := 0; rot < b.Rotations; rot++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(b.Seed, uint64(rot)))
		m := store.Match{Rotation: rot, Seed: b.Seed, Replay: fmt.Sprintf("replays/%d-%d", b.ID, rot), Started: time.Now(), Finished: time.Now()}
		perf := make([]float64, n)
		for s := range n {
			bot := bots[(s+rot)%n]
			perf[s] = p.strength[bot.Name] - 200*math.Log(-math.Log(rng.Float64()))
			ending := "ok"
			if bot.Name == p.hangs {
				ending, perf[s] = "timeout", math.Inf(-1)
			}
			m.Seats = append(m.Seats, store.Seat{Bot: bot.ID, Score: int(perf[s]), Ending: ending})
		}
		for s := range n {
			for t := range n {
				if perf[t] > perf[s] {
					m.Seats[s].Place++
				}
			}
		}
		if err := record(m); err != nil {
			return err
		}
		p.mu.Lock()
		p.recorded++
		if p.stopAfter > 0 && p.recorded >= p.stopAfter {
			p.cancel()
		}
		p.mu.Unlock()
	}
	return nil
}

func newLadder(t *testing.T, names ...string) *store.SQLite {
	st, err := store.Open(filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	for _, n := range names {
		_, err := st.AddBot(ctx, store.Bot{Name: n, SHA256: "sha-" + n, Builtin: n})
		require.NoError(t, err)
	}
	return st
}

var strengths = map[string]float64{"random": 0, "weak": 100, "mid": 250, "strong": 500}

// checkBlocks asserts that every block of the store has each rotation at most once
// and, when complete is set, all of them.
func checkBlocks(t *testing.T, st store.Store, complete bool) int {
	t.Helper()
	seen := map[[2]int64]bool{}
	games := 0
	require.NoError(t, st.Matches(ctx, "ivanhoe", func(m store.Match) error {
		key := [2]int64{m.Block, int64(m.Rotation)}
		assert.False(t, seen[key], "block %d rotation %d recorded twice", m.Block, m.Rotation)
		seen[key] = true
		games++
		return nil
	}))
	if complete {
		open, err := st.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		assert.Empty(t, open)
	}
	return games
}

func TestRunRecordsWholeBlocksAndRanks(t *testing.T) {
	st := newLadder(t, "random", "weak", "mid", "strong")
	sum, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Players: 3, Parallel: 2, Matches: 600, Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, 600, sum.Recorded, "600 games are 200 blocks of 3 rotations")
	assert.Equal(t, 200, sum.Blocks)
	assert.Equal(t, 600, checkBlocks(t, st, true))

	tables, err := Standings(ctx, st, "ivanhoe", StandingsOptions{Resamples: 100})
	require.NoError(t, err)
	require.Len(t, tables, 1)
	tb := tables[0]
	assert.Equal(t, "random v1", tb.Anchor)
	var order []string
	games := 0
	for _, s := range tb.Standings {
		order = append(order, s.Bot.Name)
		games += s.Games
		assert.LessOrEqual(t, s.Low, s.Elo)
		assert.GreaterOrEqual(t, s.High, s.Elo)
		assert.Greater(t, s.Games, 300, "every bot plays: %s", s.Bot.Name)
	}
	assert.Equal(t, 3*600, games)
	assert.Equal(t, []string{"strong", "mid", "weak", "random"}, order)
	rnd := tb.Standings[3]
	assert.Equal(t, 0.0, rnd.Elo, "the random bot is the anchor")
	top := tb.Standings[0]
	assert.Greater(t, top.High-top.Low, 0.0)
	assert.Greater(t, top.Score, 0.5)
	assert.Greater(t, top.Live, tb.Standings[3].Live)
}

func TestRunResumesAfterAStopMidBlock(t *testing.T) {
	st := newLadder(t, "random", "weak", "mid", "strong")
	for round, stop := range []int{7, 17, 0} {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			before, err := st.OpenBlocks(ctx, "ivanhoe")
			require.NoError(t, err)
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			p := &fakePlayer{strength: strengths, stopAfter: stop, cancel: cancel}
			sum, err := Run(runCtx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 4, Matches: 20, Seed: uint64(round)})
			if stop > 0 {
				require.ErrorIs(t, err, context.Canceled)
				open, err := st.OpenBlocks(ctx, "ivanhoe")
				require.NoError(t, err)
				assert.NotEmpty(t, open, "the stop came in the middle of a block")
			} else {
				require.NoError(t, err)
				require.NotEmpty(t, before)
				assert.Equal(t, len(before), sum.Resumed, "the blocks the last stop left are finished first")
				assert.Positive(t, sum.Skipped, "rotations recorded before the stop are not recorded again")
			}
			checkBlocks(t, st, stop == 0)
		})
	}
}

func TestRunSkipsOpenBlocksOfRetiredBots(t *testing.T) {
	st := newLadder(t, "random", "weak", "mid")
	runCtx, cancel := context.WithCancel(ctx)
	p := &fakePlayer{strength: strengths, stopAfter: 1, cancel: cancel}
	_, err := Run(runCtx, RunConfig{Store: st, Player: p, Game: "ivanhoe", Players: 3, Matches: 3})
	require.ErrorIs(t, err, context.Canceled)
	_, err = st.RetireBot(ctx, "mid")
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "strong", SHA256: "s", Builtin: "strong"})
	require.NoError(t, err)
	sum, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Players: 3, Matches: 3})
	require.NoError(t, err)
	assert.Equal(t, 0, sum.Resumed)
	assert.Equal(t, 3, sum.Recorded)
}

func TestRunNeedsEnoughBots(t *testing.T) {
	st := newLadder(t, "random")
	_, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{}, Game: "ivanhoe", Matches: 1})
	require.Error(t, err)
	_, err = Run(ctx, RunConfig{Store: st, Player: &fakePlayer{}, Game: "ivanhoe", Players: 2, Matches: 1})
	require.ErrorIs(t, err, ErrTooFewBots)
	_, err = Run(ctx, RunConfig{Store: st, Player: &fakePlayer{}, Game: "no-such-game", Matches: 1})
	require.Error(t, err)
}

func TestRunForADuration(t *testing.T) {
	st := newLadder(t, "random", "weak")
	start := time.Now()
	sum, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Duration: 50 * time.Millisecond})
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Positive(t, sum.Recorded)
	checkBlocks(t, st, true)
}

func TestChooseTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cands := []candidate{{1, 50, 0}, {2, 50, 10}, {3, 50, 900}, {4, 3, 0}, {5, 50, -20}}
	count := map[int64]int{}
	for range 2000 {
		table := chooseTable(cands, 3, rng)
		require.Len(t, table, 3)
		assert.Equal(t, int64(4), table[0], "the bot with the fewest games is always seated")
		seen := map[int64]bool{}
		for _, id := range table {
			assert.False(t, seen[id], "a bot sits once per table")
			seen[id] = true
			count[id]++
		}
	}
	t.Run("a bot far from the first's rating is seated less than close ones, but still seated", func(t *testing.T) {
		assert.Less(t, count[3], count[1]/10)
		assert.Greater(t, count[1], 500)
	})
	t.Run("ties in games are broken at random", func(t *testing.T) {
		first := map[int64]int{}
		even := []candidate{{1, 5, 0}, {2, 5, 0}, {3, 5, 0}}
		for range 300 {
			first[chooseTable(even, 2, rng)[0]]++
		}
		assert.Len(t, first, 3)
	})
	assert.Nil(t, chooseTable(cands, 6, rng))
}

func TestStandingsListsNewAndRetiredBots(t *testing.T) {
	st := newLadder(t, "random", "weak")
	_, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Matches: 10})
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "fresh", SHA256: "f", Builtin: "fresh"})
	require.NoError(t, err)
	_, err = st.RetireBot(ctx, "weak")
	require.NoError(t, err)

	tables, err := Standings(ctx, st, "", StandingsOptions{Resamples: 20})
	require.NoError(t, err)
	require.Len(t, tables, 1)
	var names []string
	for _, s := range tables[0].Standings {
		names = append(names, s.Bot.Name)
	}
	assert.Equal(t, []string{"random", "fresh"}, names, "the retired version is hidden; the new bot comes last, unrated")
	assert.True(t, math.IsNaN(tables[0].Standings[1].Elo))

	tables, err = Standings(ctx, st, "ivanhoe", StandingsOptions{Resamples: 20, Retired: true})
	require.NoError(t, err)
	names = nil
	for _, s := range tables[0].Standings {
		names = append(names, s.Bot.Name)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"fresh", "random", "weak"}, names)
}

func TestPoints(t *testing.T) {
	for _, c := range []struct {
		places []int
		seat   int
		want   float64
	}{
		{[]int{0, 1}, 0, 1},
		{[]int{0, 1}, 1, 0},
		{[]int{0, 0}, 1, 0.5},
		{[]int{0, 1, 2, 3}, 1, 2.0 / 3},
		{[]int{1, 0, 1, 3}, 2, 1.5 / 3},
	} {
		assert.InDelta(t, c.want, Points(c.places, c.seat), 1e-12, "%v seat %d", c.places, c.seat)
	}
}

// TestBlocksDealFromFreshEntropy: two ladders run with the same seed deal different
// blocks. The ladder's seed only chooses tables; were the deals drawn from it, a bot
// that learned or guessed it would know every deal to come.
func TestBlocksDealFromFreshEntropy(t *testing.T) {
	seeds := func() map[uint64]bool {
		st := newLadder(t, "random", "weak", "mid")
		_, err := Run(ctx, RunConfig{Store: st, Player: &fakePlayer{strength: strengths}, Game: "ivanhoe", Players: 2, Matches: 20, Seed: 1})
		require.NoError(t, err)
		out := map[uint64]bool{}
		require.NoError(t, st.Matches(ctx, "ivanhoe", func(m store.Match) error { out[m.Seed] = true; return nil }))
		return out
	}
	a, b := seeds(), seeds()
	require.Len(t, a, 10, "ten blocks, each its own deal")
	for s := range a {
		assert.False(t, b[s], "both ladders dealt seed %d", s)
	}
}
