package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine/enginetest"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// fastClock keeps misbehaviour tests short. It is the good bots' clock too, so it is
// widened by the tests' clock scale (testkit.ClockScaleEnv) on a slow or busy machine.
var fastClock = scaledClock(Clock{Decision: 300 * time.Millisecond, Bank: 5 * time.Second, Startup: 5 * time.Second,
	Shutdown: 500 * time.Millisecond, Grace: 20 * time.Millisecond})

// scaledClock is c with every limit widened by the tests' clock scale.
func scaledClock(c Clock) Clock {
	s := testkit.Scaled
	return Clock{Decision: s(c.Decision), Bank: s(c.Bank), Startup: s(c.Startup), Shutdown: s(c.Shutdown), Grace: s(c.Grace), Match: s(c.Match)}
}

func testConfig(t *testing.T, games int, entrants ...Entrant) Config {
	return Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Entrants: entrants, Games: games, Seed: 42, Parallel: 2, Clock: fastClock, KeepMatches: true,
		ReplayDir: filepath.Join(testDir(t), "replays"), Sandbox: testSandbox(t, sandbox.Auto)}
}

func TestEveryDealIsPlayedInEverySeatRotation(t *testing.T) {
	cfg := testConfig(t, 5, testEntrant(t, "first", "first"), testEntrant(t, "last", "last"), testEntrant(t, "random", "random"))
	began := time.Now()
	rep, err := Run(context.Background(), cfg)
	ran := time.Since(began)
	require.NoError(t, err)
	requireNoLeftovers(t)

	require.Equal(t, 6, rep.Games, "5 games round up to 2 deals of 3 rotations")
	require.Len(t, rep.DealBlocks, 2)
	seatings := map[int]map[string]bool{}
	seeds := map[int]uint64{}
	for _, m := range rep.Matches {
		if seatings[m.Deal] == nil {
			seatings[m.Deal] = map[string]bool{}
			seeds[m.Deal] = m.Seed
		}
		assert.Equal(t, seeds[m.Deal], m.Seed, "every rotation of a deal plays the same deal")
		var order []string
		total := 0.0
		for s, seat := range m.Seats {
			assert.Equal(t, OK, seat.Ending, "%s seat %d", m.ID, s)
			assert.Equal(t, seat.GamePlace, seat.Place, "no forfeit, so the game's places stand")
			order = append(order, seat.Bot)
			total += seat.Points
		}
		assert.InDelta(t, 1.5, total, 1e-9, "three seats share 3 pairings' points")
		seatings[m.Deal][strings.Join(order, ",")] = true
	}
	assert.NotEqual(t, seeds[0], seeds[1], "deals differ")
	for d, s := range seatings {
		assert.Equal(t, map[string]bool{"first,last,random": true, "last,random,first": true, "random,first,last": true}, s, "deal %d", d)
	}
	for _, b := range rep.Bots {
		assert.Equal(t, 6, b.Games)
		assert.Equal(t, 6, b.Endings["ok"])
		assert.Equal(t, 2, b.DealsAhead+b.DealsEven+b.DealsBehind, "every deal is judged")
		assert.Positive(t, b.Decisions)
		assert.Positive(t, b.MeanLatencyMs)
		assert.GreaterOrEqual(t, b.P99LatencyMs, b.MeanLatencyMs*0.5)
	}
	// The start-up cost: bots started and a first answer, within the run's time. It
	// counts from Run's call, the sandbox's preparation included, where ElapsedS (the
	// games' time) starts after it: under load a short run's first decision can come
	// later than ElapsedS.
	assert.Positive(t, rep.FirstDecisionMs)
	assert.Less(t, rep.FirstDecisionMs, float64(ran)/float64(time.Millisecond))

	var buf bytes.Buffer
	require.NoError(t, rep.WriteTable(&buf))
	assert.Contains(t, buf.String(), "2 deals x 3 seatings")
	buf.Reset()
	require.NoError(t, rep.WriteJSON(&buf), "infinite Elo bounds must not break JSON")
}

func TestReplaysReSimulateExactly(t *testing.T) {
	cfg := testConfig(t, 6, testEntrant(t, "random-a", "random"), testEntrant(t, "random-b", "random"))
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, rep.Matches, 6)
	for _, m := range rep.Matches {
		f, err := os.Open(m.Replay)
		require.NoError(t, err)
		r, err := ReadReplay(f)
		f.Close()
		require.NoError(t, err)
		g, err := Resimulate(r, nil)
		require.NoError(t, err, m.ID)
		assert.Equal(t, m.Hash, hashString(g.Hash()))
		assert.Equal(t, m.Decisions, len(r.Decisions))
		var out bytes.Buffer
		require.NoError(t, WriteReadable(&out, r, true))
		assert.Contains(t, out.String(), "takes")
	}

	t.Run("a tampered replay does not reproduce", func(t *testing.T) {
		r := readReplay(t, rep.Matches[0].Replay)
		d := &r.Decisions[len(r.Decisions)/2]
		d.Option.A = 7 // no such take
		_, err := Resimulate(r, nil)
		assert.ErrorContains(t, err, "does not reproduce")

		r = readReplay(t, rep.Matches[0].Replay)
		r.Result.Hash = "0000000000000000"
		_, err = Resimulate(r, nil)
		assert.ErrorContains(t, err, "hash")
	})

	t.Run("a recorded replay is never overwritten", func(t *testing.T) {
		before, err := os.ReadFile(rep.Matches[0].Replay)
		require.NoError(t, err)
		_, err = Run(context.Background(), cfg)
		require.ErrorContains(t, err, "already exists")
		after, err := os.ReadFile(rep.Matches[0].Replay)
		require.NoError(t, err)
		assert.Equal(t, before, after)
	})

	t.Run("the same seed plays the same run", func(t *testing.T) {
		cfg := cfg
		cfg.ReplayDir = t.TempDir()
		again, err := Run(context.Background(), cfg)
		require.NoError(t, err)
		for i := range rep.Matches {
			assert.Equal(t, rep.Matches[i].Hash, again.Matches[i].Hash, rep.Matches[i].ID)
		}
	})
}

func readReplay(t *testing.T, path string) *Replay {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := ReadReplay(f)
	require.NoError(t, err)
	return r
}

func TestEachMisbehaviourGetsItsEnding(t *testing.T) {
	cases := []struct {
		mode string
		want Ending
	}{
		{"sleep:2", Timeout},
		{"exitonce:1", Crash},
		{"illegal:2", Illegal},
		{"malformed:2", Protocol},
		{"error:2", Protocol},
		{"panic:2", Protocol},
		{"refuse", Protocol},
	}
	for _, c := range cases {
		t.Run(c.want.String()+" for "+c.mode, func(t *testing.T) {
			cfg := testConfig(t, 2, testEntrant(t, "bad", c.mode), testEntrant(t, "good", "first"))
			cfg.Parallel = 1 // so that a crash hits one match and the next one gets a restart
			if c.want == Crash {
				// Two deals: the seat whose process crashed in the first deal plays the
				// second on its restart.
				cfg.Games = 4
				// Its flag file lies outside the bot's directory, where Landlock would
				// refuse it (and make every process crash).
				cfg.Sandbox.Level = sandbox.None
			}
			rep, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			requireNoLeftovers(t)
			bad, good := rep.Bots[0], rep.Bots[1]
			assert.Equal(t, cfg.Games, good.Endings["ok"], "the well-behaved bot finishes every match")
			if c.want == Crash {
				assert.Equal(t, 1, bad.Endings["crash"], "the first process crashes, its restart plays on")
				assert.Equal(t, 1, bad.Restarts)
			} else {
				assert.Equal(t, 2, bad.Endings[c.want.String()], "%+v", bad.Endings)
			}
			for _, m := range rep.Matches {
				for _, s := range m.Seats {
					if s.Ending != OK {
						assert.Equal(t, 1, s.Place, "%s: a forfeiting seat is last", m.ID)
						assert.Equal(t, 0, m.Seats[1-indexOf(m, s.Entrant)].Place)
						assert.NotEmpty(t, s.Detail)
					}
				}
				r := readReplay(t, m.Replay)
				_, err := Resimulate(r, nil)
				assert.NoError(t, err, "a match with a forfeit replays too")
			}
		})
	}
}

func TestASpentBankIsATimeout(t *testing.T) {
	// Two 400 ms answers leave 200 ms of a 1 s bank for their transport, 100 ms each:
	// beyond a load of 16's delays (p99 65 ms); the third overdraws it.
	cfg := testConfig(t, 2, testEntrant(t, "slow", "slow:400"), testEntrant(t, "good", "first"))
	cfg.Clock.Decision = 2 * time.Second
	cfg.Clock.Bank = time.Second
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Bots[0].Endings["timeout"], "each decision is within its deadline, the third overdraws the bank")
	for _, m := range rep.Matches {
		s := m.Seats[indexOf(m, 0)]
		assert.Equal(t, 2, s.Answered, "two answers fit in the bank")
		grace := fmt.Sprintf("%.1f", float64(fastClock.Grace)/float64(time.Millisecond))
		assert.Regexp(t, `^no answer before the deadline of [0-9.]+ ms \([0-9.]+ ms, grace `+grace+` ms\): waited [0-9.]+ ms, bank [0-9.]+ ms left$`, s.Detail,
			"a timeout says the deadline, the time taken and the bank left")
	}
	requireNoLeftovers(t)
}

func indexOf(m *MatchResult, entrant int) int {
	for s, x := range m.Seats {
		if x.Entrant == entrant {
			return s
		}
	}
	return -1
}

func TestACrashingBotStopsTheRunPastTheRestartLimit(t *testing.T) {
	cfg := testConfig(t, 20, testEntrant(t, "crasher", "exit:1"), testEntrant(t, "good", "first"))
	cfg.MaxRestarts = 2
	cfg.MaxForfeitShare = -1 // the restart limit, not disqualification, is under test
	starts := &startCounter{}
	cfg.Observer = starts
	rep, err := Run(context.Background(), cfg)
	var limit *ErrRestartLimit
	require.True(t, errors.As(err, &limit), "got %v", err)
	require.NotNil(t, rep, "a stopped run reports what it completed")
	assert.True(t, rep.Partial)
	assert.Equal(t, err.Error(), rep.StoppedBy)
	assert.Equal(t, 2*rep.Deals, rep.Games, "whole deals only")
	assert.Less(t, rep.Games, 20)
	assert.Equal(t, 2, limit.Restarts)
	assert.Contains(t, err.Error(), "exiting on purpose", "the bot's last stderr line is in the message")
	kept, err := os.ReadFile(filepath.Join(cfg.ReplayDir, "stderr-0-crasher.log"))
	require.NoError(t, err)
	// One process per seat, each started when its seat is first played (the second
	// may not be before the limit is reached, as matches run two at a time), and the
	// restarts.
	fresh, restarts := starts.of("crasher")
	assert.Equal(t, limit.Restarts, restarts)
	assert.Contains(t, []int{1, 2}, fresh)
	// Every process the arena found crashed (each restart's, and the one past the
	// limit) left its line; one that never got its first decision, none.
	crashed := strings.Count(string(kept), "exiting on purpose")
	assert.GreaterOrEqual(t, crashed, restarts+1, "stderr of every crashed process is kept")
	assert.LessOrEqual(t, crashed, fresh+restarts)
	requireNoLeftovers(t)
}

// startCounter counts each bot's processes started afresh and restarted.
type startCounter struct {
	nopObserver
	mu               sync.Mutex
	fresh, restarted map[string]int
}

func (c *startCounter) BotStarted(bot string, restart bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fresh == nil {
		c.fresh, c.restarted = map[string]int{}, map[string]int{}
	}
	if restart {
		c.restarted[bot]++
	} else {
		c.fresh[bot]++
	}
}

func (c *startCounter) of(bot string) (fresh, restarted int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fresh[bot], c.restarted[bot]
}

func TestChildrenOfABotAreKilledWithIt(t *testing.T) {
	cfg := testConfig(t, 2, testEntrant(t, "forker", "forker"), testEntrant(t, "good", "first"))
	require.NotEmpty(t, cfg.Entrants)
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Bots[0].Endings["ok"])
	requireNoLeftovers(t)
}

func TestStderrThatLooksLikeLogsIsKeptAwayFromThePluginParser(t *testing.T) {
	rep, err := Run(context.Background(), testConfig(t, 2, testEntrant(t, "noisy", "noisy"), testEntrant(t, "good", "first")))
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Bots[0].Endings["ok"])
	requireNoLeftovers(t)
}

func TestCancellingARunStopsEveryBot(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := testConfig(t, 20, testEntrant(t, "slow", "sleep:1"), testEntrant(t, "forker", "forker"))
	cfg.Clock.Decision = 5 * time.Second
	cfg.Parallel = 1
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := Run(ctx, cfg)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 4*time.Second, "cancelled, not waited out")
	requireNoLeftovers(t)
}

func TestBadConfigurationIsOneClearError(t *testing.T) {
	dir := testDir(t)
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("data"), 0o644))
	good := testEntrant(t, "good", "first")
	path := func(p string) Entrant { l := good.Launch; l.Path = p; return Entrant{Name: p, Launch: l} }
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown game", Config{Game: "chess", Launcher: protocol.Launcher{}, Entrants: []Entrant{good, good}, Games: 1}, `unknown game "chess"`},
		{"too few bots", Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Entrants: []Entrant{good}, Games: 1}, "2 to 6 players, not 1"},
		{"too many bots", Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Entrants: []Entrant{good, good, good, good, good, good, good}, Games: 1}, "not 7"},
		{"not executable", Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Entrants: []Entrant{path(plain), good}, Games: 1}, "not an executable"},
		{"missing", Config{Game: enginetest.Name, Launcher: protocol.Launcher{}, Entrants: []Entrant{path(filepath.Join(dir, "nope")), good}, Games: 1}, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Clock = fastClock
			c.cfg.Clock.Startup = time.Second
			start := time.Now()
			c.cfg.Sandbox = testSandbox(t, sandbox.Auto)
			_, err := Run(context.Background(), c.cfg)
			assert.Less(t, time.Since(start), 3*time.Second)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "\n", "one line")
			requireNoLeftovers(t)
		})
	}
}
