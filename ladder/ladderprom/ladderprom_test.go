package ladderprom

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
)

// ladderWith records games between two bots into a fresh SQLite store: heuristic wins
// every game, and random forfeits one seat in every third game.
func ladderWith(t *testing.T, games int) store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	r, err := st.AddBot(ctx, store.Bot{Name: "random", Builtin: "random", SHA256: "r"})
	require.NoError(t, err)
	h, err := st.AddBot(ctx, store.Bot{Name: "heuristic", Builtin: "heuristic", SHA256: "h"})
	require.NoError(t, err)
	_, err = st.AddBot(ctx, store.Bot{Name: "heuristic", Builtin: "heuristic", SHA256: "h2"}) // v2 retires v1
	require.NoError(t, err)
	for g := range games {
		b, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Seed: uint64(g), Bots: []int64{h.ID, r.ID}, Rotations: 1})
		require.NoError(t, err)
		ending := "ok"
		if g%3 == 0 {
			ending = "crash"
		}
		at := time.Unix(1_700_000_000+int64(g), 0)
		_, err = st.RecordMatch(ctx, store.Match{Block: b.ID, Game: "ivanhoe", Started: at, Finished: at,
			Seats: []store.Seat{{Bot: h.ID, Place: 0, Ending: "ok"}, {Bot: r.ID, Place: 1, Ending: ending}}})
		require.NoError(t, err)
	}
	return st
}

// TestTotalsComeFromTheStore: a new exporter over an existing ladder reports its games,
// forfeits, score, last game time and ratings, with no game played by this process,
// each labelled with the ladder and the game. heuristic v1 played every game but was
// retired by v2: the ladder's total counts its games, no series names it.
func TestTotalsComeFromTheStore(t *testing.T) {
	e, _ := New(ladderWith(t, 12), "ivanhoe", "club")
	require.NoError(t, e.Refit(context.Background()))
	want := `
# HELP arena_ladder_bot_games_total Games a bot version that plays played on the ladder, read from the ladder's database.
# TYPE arena_ladder_bot_games_total counter
arena_ladder_bot_games_total{bot="random",game="ivanhoe",ladder="club",version="1"} 12
# HELP arena_ladder_bot_forfeits_total Recorded games in which a bot version that plays forfeited its seat (timeout, crash, illegal, protocol), read from the database.
# TYPE arena_ladder_bot_forfeits_total counter
arena_ladder_bot_forfeits_total{bot="random",game="ivanhoe",ladder="club",version="1"} 4
# HELP arena_ladder_games_total Games recorded on the ladder, retired versions' too, read from the database.
# TYPE arena_ladder_games_total counter
arena_ladder_games_total{game="ivanhoe",ladder="club"} 12
# HELP arena_ladder_last_game_timestamp_seconds When the ladder's last recorded game ended (Unix time), read from the database.
# TYPE arena_ladder_last_game_timestamp_seconds gauge
arena_ladder_last_game_timestamp_seconds{game="ivanhoe",ladder="club"} 1.700000011e+09
# HELP arena_ladder_active_bots Bot versions that play on the ladder (neither retired nor suspended).
# TYPE arena_ladder_active_bots gauge
arena_ladder_active_bots{game="ivanhoe",ladder="club"} 2
# HELP arena_ladder_refit_failed 1 when the last refit of the official ratings failed (the rating series then keep the last good fit), else 0.
# TYPE arena_ladder_refit_failed gauge
arena_ladder_refit_failed{game="ivanhoe",ladder="club"} 0
`
	require.NoError(t, testutil.GatherAndCompare(e.Gatherer(), strings.NewReader(want), "arena_ladder_bot_games_total",
		"arena_ladder_bot_forfeits_total", "arena_ladder_games_total", "arena_ladder_last_game_timestamp_seconds", "arena_ladder_active_bots", "arena_ladder_refit_failed"))
	n, err := testutil.GatherAndCount(e.Gatherer(), "arena_ladder_rating_elo")
	require.NoError(t, err)
	assert.Equal(t, 2, n, "official and live Elo of random, the one version that played and plays")
	problems, err := testutil.GatherAndLint(e.Gatherer())
	require.NoError(t, err)
	assert.Empty(t, problems)
}

// TestARetiredVersionLeavesTheSeries: a version retired while the exporter runs is
// in no series from the next read on, and the owner hears of it once, so that it can
// delete the version's series of its own.
func TestARetiredVersionLeavesTheSeries(t *testing.T) {
	st := ladderWith(t, 6)
	e, _ := New(st, "ivanhoe", "club")
	var heard []string
	e.OnRetired = func(b store.Bot) { heard = append(heard, fmt.Sprintf("%s v%d", b.Name, b.Version)) }
	require.NoError(t, e.Refit(context.Background()))
	names := func() string {
		require.NoError(t, e.Refresh(context.Background())) // as Follow does every second
		var out []string
		mfs, err := e.Gatherer().Gather()
		require.NoError(t, err)
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				labels := map[string]string{}
				for _, l := range m.GetLabel() {
					labels[l.GetName()] = l.GetValue()
				}
				if labels["bot"] != "" {
					out = append(out, mf.GetName()+" "+labels["bot"]+" v"+labels["version"])
				}
			}
		}
		return strings.Join(out, "\n")
	}
	before := names()
	assert.Contains(t, before, "arena_ladder_rating_elo random v1")
	assert.Contains(t, before, "arena_ladder_bot_suspended heuristic v2", "v2 plays, though it has no game yet")
	assert.NotContains(t, before, "heuristic v1", "v1 played every game but was retired by v2")
	_, err := st.RetireBot(context.Background(), "random")
	require.NoError(t, err)
	assert.Equal(t, "arena_ladder_bot_suspended heuristic v2", names(), "random retired: only heuristic v2 is left")
	assert.Equal(t, []string{"heuristic v1", "random v1"}, heard, "each retirement once")
}

// failing is a store whose reads fail, as a locked or damaged database would.
type failing struct{ store.Store }

var errBroken = errors.New("database disk image is malformed")

func (failing) Matches(context.Context, string, func(store.Match) error) error { return errBroken }
func (failing) MatchesAfter(context.Context, string, int64, func(store.Match) error) error {
	return errBroken
}

// TestStoreAndRefitErrorsAreExported: a failed read is counted by operation, the refit
// that needed it is reported failed, and a scrape, which reads nothing, adds no error.
func TestStoreAndRefitErrorsAreExported(t *testing.T) {
	e, st := New(failing{ladderWith(t, 3)}, "ivanhoe", "club")
	require.ErrorIs(t, e.Refit(context.Background()), errBroken)
	require.ErrorIs(t, st.Matches(context.Background(), "ivanhoe", func(store.Match) error { return nil }), errBroken)
	assert.Equal(t, 2.0, testutil.ToFloat64(e.errs.WithLabelValues("read")), "the refit's read and ours")
	assert.Equal(t, 1.0, testutil.ToFloat64(e.refits.WithLabelValues("error")))
	require.NoError(t, testutil.GatherAndCompare(e.Gatherer(), strings.NewReader(`
# HELP arena_ladder_refit_failed 1 when the last refit of the official ratings failed (the rating series then keep the last good fit), else 0.
# TYPE arena_ladder_refit_failed gauge
arena_ladder_refit_failed{game="ivanhoe",ladder="club"} 1
`), "arena_ladder_refit_failed"))
	assert.Equal(t, 2.0, testutil.ToFloat64(e.errs.WithLabelValues("read")), "the scrape read nothing")
}

// TestAnErrorOfTheCallbackIsNotAStoreError: Matches stopped by its caller is not the
// store failing.
func TestAnErrorOfTheCallbackIsNotAStoreError(t *testing.T) {
	e, st := New(ladderWith(t, 2), "ivanhoe", "club")
	stop := errors.New("enough")
	require.ErrorIs(t, st.Matches(context.Background(), "", func(store.Match) error { return stop }), stop)
	assert.Equal(t, 0.0, testutil.ToFloat64(e.errs.WithLabelValues("read")))
}

func TestBotLabel(t *testing.T) {
	for in, want := range map[string][2]string{"heuristic v1": {"heuristic", "1"}, "my bot v12": {"my bot", "12"},
		"random": {"random", ""}, "vv": {"vv", ""}, "x vNext": {"x vNext", ""}} {
		b, v := BotLabel(in)
		assert.Equal(t, want, [2]string{b, v}, in)
	}
}

// recorder is an Observer that keeps the bot names it hears.
type recorder struct{ bots []string }

func (r *recorder) BotStarted(bot string, _ bool)           { r.bots = append(r.bots, bot) }
func (r *recorder) BotStopped(bot string)                   { r.bots = append(r.bots, bot) }
func (r *recorder) MatchStarted(string)                     {}
func (r *recorder) Decision(_, bot string, _ time.Duration) { r.bots = append(r.bots, bot) }
func (r *recorder) MatchFinished(_ string, m *arena.MatchResult, _ time.Duration, _ error) {
	for _, s := range m.Seats {
		r.bots = append(r.bots, s.Bot)
	}
}

func TestObserverDropsTheVersion(t *testing.T) {
	r := &recorder{}
	o := Observer(r)
	o.BotStarted("heuristic v2", false)
	o.Decision("ivanhoe", "heuristic v2", time.Millisecond)
	res := &arena.MatchResult{Seats: []arena.SeatResult{{Bot: "random v1"}}}
	o.MatchFinished("ivanhoe", res, time.Second, nil)
	o.BotStopped("heuristic v2")
	assert.Equal(t, []string{"heuristic", "heuristic", "random", "heuristic"}, r.bots)
	assert.Equal(t, "random v1", res.Seats[0].Bot, "the runner's own result is not changed")
}
