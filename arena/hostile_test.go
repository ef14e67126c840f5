package arena

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/arena-games/arena/engine/ivanhoe"
	_ "github.com/arena-games/arena/engine/kardinal"
	_ "github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/protocol/sandbox"
)

// hostileClock is short where a case waits for it (a hang shows within a second); the
// start-up and the bank, which no case exhausts on purpose, are long, so that a loaded
// machine's slow starts and OOM kills are never taken for timeouts.
var hostileClock = Clock{Decision: 500 * time.Millisecond, Bank: time.Minute, Startup: 30 * time.Second,
	Shutdown: 300 * time.Millisecond, Grace: 50 * time.Millisecond}

// hostileGames are the games and the number of seats each case plays (the smallest
// table, so one deal is a few matches).
var hostileGames = []struct {
	game    string
	players int
}{{"ivanhoe", 2}, {"kardinal", 3}, {"ninjas", 2}}

// hostileCase is one misbehaviour and what the arena must make of it.
type hostileCase struct {
	name string
	mode string
	// want lists the endings the hostile seat may get (all its seats get one of them);
	// most cases have exactly one.
	want []Ending
	// needs lists layers of which at least one must be active for the case to run at
	// all (its harm must be bounded); blocks lists layers of which one must be active
	// to prove the action was blocked (the case runs either way).
	needs, blocks []string
	// check looks at the bot's kept stderr when a blocking layer is active.
	check func(t *testing.T, stderr string, env hostileEnv)
}

type hostileEnv struct {
	outside  string
	accepted func() int
}

func TestHostileBots(t *testing.T) {
	probe := sandbox.Detect()
	t.Logf("machine: landlock ABI %d (%s), namespaces: %s, cgroup memory: %s, cgroup pids: %s", probe.LandlockABI,
		orOK(probe.LandlockReason), orOK(probe.NamespaceReason), orOK(probe.CgroupMemoryReason), orOK(probe.CgroupPidsReason))
	for _, c := range hostileCases {
		for _, g := range hostileGames {
			t.Run(c.name+"/"+g.game, func(t *testing.T) {
				t.Parallel()
				runHostile(t, c, sandbox.Auto, g.game, g.players)
			})
		}
	}
}

// TestHostileBotsAtTheBasicLevel runs the cases that the unprivileged layers must
// bound or block on their own (rlimits, Landlock), as on a machine without root.
func TestHostileBotsAtTheBasicLevel(t *testing.T) {
	for _, c := range hostileCases {
		switch c.mode {
		case "bomb:2", "hog:2", "net:1", "write:1", "escape:2":
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				runHostile(t, c, sandbox.Basic, "ivanhoe", 2)
			})
		}
	}
}

var hostileCases = []hostileCase{
	{name: "crash at start", mode: "startcrash", want: []Ending{Crash}},
	{name: "exit before the handshake", mode: "nohandshake", want: []Ending{Crash}},
	{name: "junk before the handshake", mode: "junk", want: []Ending{Protocol}},
	{name: "crash mid-match", mode: "crashmid:2", want: []Ending{Crash}},
	{name: "hang forever", mode: "hang:2", want: []Ending{Timeout}},
	{name: "ignore the deadline and compute", mode: "spin:2", want: []Ending{Timeout}},
	{name: "out-of-range option", mode: "illegal:2", want: []Ending{Illegal}},
	{name: "negative option", mode: "negative:2", want: []Ending{Illegal}},
	{name: "garbage answer", mode: "garbage", want: []Ending{Protocol}},
	{name: "answer over 4 MiB", mode: "huge:2", want: []Ending{Protocol}},
	{name: "flood stdout and stderr", mode: "flood", want: []Ending{OK}, check: func(t *testing.T, stderr string, _ hostileEnv) {
		assert.LessOrEqual(t, len(stderr), 64<<10+100, "the kept stderr is capped")
	}},
	{name: "malformed JSON log lines on stderr", mode: "noisy", want: []Ending{OK}},
	{name: "child holds the pipes open", mode: "forkcrash:2", want: []Ending{Crash}},
	{name: "child leaves the process group", mode: "escape:2", want: []Ending{Crash},
		needs: []string{sandbox.PIDNamespace, sandbox.CgroupProcesses}},
	// A fork bomb takes every pid the bot may have; the bot's own runtime may then
	// fail to make a thread (a crash) or be starved of CPU (a timeout), or it plays on.
	{name: "fork bomb", mode: "bomb:2", want: []Ending{OK, Timeout, Crash},
		needs: []string{sandbox.CgroupProcesses, sandbox.RlimitProcs},
		check: func(t *testing.T, stderr string, _ hostileEnv) {
			assert.Regexp(t, `(?i)fork|resource temporarily unavailable`, stderr, "the bomb was refused processes")
		}},
	{name: "memory without bound", mode: "hog:2", want: []Ending{Crash},
		needs: []string{sandbox.CgroupMemory, sandbox.Rlimits}},
	{name: "open a network connection", mode: "net:1", want: []Ending{OK},
		blocks: []string{sandbox.NetNamespace, sandbox.LandlockNet},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: connect refused")
			assert.NotContains(t, stderr, "probe: connected")
			assert.Zero(t, env.accepted(), "the listener saw no connection")
		}},
	{name: "write outside its directory", mode: "write:1", want: []Ending{OK},
		blocks: []string{sandbox.LandlockFS},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: write outside refused")
			assert.Contains(t, stderr, "permission denied")
			assert.Contains(t, stderr, "probe: wrote inside", "its own directory stays writable")
			left, _ := os.ReadDir(env.outside)
			assert.Empty(t, left, "nothing was written outside")
		}},
}

func orOK(reason string) string {
	if reason == "" {
		return "yes"
	}
	return reason
}

func runHostile(t *testing.T, c hostileCase, level sandbox.Level, game string, players int) {
	sb := testSandbox(t, level)
	layers, err := sb.Layers()
	require.NoError(t, err)
	active := map[string]bool{}
	missing := map[string]string{}
	for _, l := range layers {
		if l.Active {
			active[l.Layer] = true
		} else {
			missing[l.Layer] = l.Reason
		}
	}
	anyActive := func(ls []string) bool {
		for _, l := range ls {
			if active[l] {
				return true
			}
		}
		return false
	}
	why := func(ls []string) string {
		var out []string
		for _, l := range ls {
			reason, ok := missing[l]
			if !ok {
				reason = "not part of level " + level.String()
			}
			out = append(out, l+": "+reason)
		}
		return strings.Join(out, "; ")
	}
	if len(c.needs) > 0 && !anyActive(c.needs) {
		t.Skipf("no layer bounds this bot on this machine, so it is not run (%s)", why(c.needs))
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			conn.Close()
		}
	}()
	outside := filepath.Join(testDir(t), "outside")
	require.NoError(t, os.MkdirAll(outside, 0o777))

	bad := testEntrant(t, "hostile", c.mode)
	bad.Launch.Env = append(bad.Launch.Env, "ARENA_TEST_ADDR="+ln.Addr().String(), "ARENA_TEST_OUTSIDE="+outside)
	entrants := []Entrant{bad}
	for i := 1; i < players; i++ {
		entrants = append(entrants, testEntrant(t, "good"+string(rune('0'+i)), "random"))
	}
	cfg := Config{Game: game, Entrants: entrants, Games: players, Seed: 7, Parallel: 2, Clock: hostileClock, KeepMatches: true,
		ReplayDir: filepath.Join(testDir(t), "replays"), Sandbox: sb, MaxForfeitShare: -1}
	if !slices.Contains(c.want, Timeout) {
		// A bot that answers, crashes or breaks the protocol is never waited for, so a
		// long deadline costs nothing; a short one turned a crash seen late on a loaded
		// machine (a child holding the pipes, a slow OOM) into a timeout.
		// (The memory hog's OOM kill must come before the deadline's answer too.)
		cfg.Clock.Decision = 20 * time.Second
	}
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err, "the arena survives the bot")
	t.Logf("%d matches in %s", len(rep.Matches), time.Since(start).Round(time.Millisecond))
	requireNoLeftovers(t)

	require.Len(t, rep.Matches, players, "every rotation was played")
	for _, m := range rep.Matches {
		for s, seat := range m.Seats {
			if seat.Entrant != 0 {
				assert.Equal(t, OK, seat.Ending, "%s seat %d (%s): %s", m.ID, s, seat.Bot, seat.Detail)
				continue
			}
			assert.Contains(t, c.want, seat.Ending, "%s: the hostile seat ended %s (%s)", m.ID, seat.Ending, seat.Detail)
			if seat.Ending != OK {
				assert.Equal(t, players-1, seat.Place, "%s: a forfeiting seat is last", m.ID)
				assert.NotEmpty(t, seat.Detail)
			}
		}
		r := readReplay(t, m.Replay)
		require.Len(t, r.Header.Sandbox, players, "the replay records every seat's sandbox")
		assert.Equal(t, rep.Sandbox.Active, r.Header.Sandbox[0].Active)
		_, err := Resimulate(r, nil)
		assert.NoError(t, err, "%s replays", m.ID)
	}
	if c.check == nil {
		return
	}
	if len(c.blocks) > 0 && !anyActive(c.blocks) {
		t.Skipf("the bot played as it should, but no layer blocks its action on this machine (%s)", why(c.blocks))
	}
	kept, _ := os.ReadFile(filepath.Join(cfg.ReplayDir, "stderr-0-hostile.log"))
	c.check(t, string(kept), hostileEnv{outside: outside, accepted: func() int { return len(accepted) }})
}

// A bot that does not start is the bot's fault, not the run's: its seats forfeit with
// the ending its failure deserves, and the other bots play on.
func TestABotThatDoesNotStartForfeitsItsSeats(t *testing.T) {
	dir := testDir(t)
	silent := filepath.Join(dir, "silent")
	require.NoError(t, os.WriteFile(silent, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755))
	talker := filepath.Join(dir, "talker")
	require.NoError(t, os.WriteFile(talker, []byte("#!/bin/sh\necho not a plugin\n"), 0o755))
	good := testEntrant(t, "good", "first")
	path := func(p string) Entrant { l := good.Launch; l.Path = p; return Entrant{Name: "bad", Launch: l} }
	cases := []struct {
		name   string
		bad    Entrant
		want   Ending
		detail string
	}{
		{"not a plugin", path(talker), Protocol, "Unrecognized remote plugin message: not a plugin"},
		{"silent past the startup deadline", path(silent), Timeout, "timeout while waiting"},
		{"protocol version mismatch", testEntrant(t, "bad", "v2"), Protocol, "version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want == Timeout {
				// Only the silent bot waits for its deadline; the others fail at once,
				// and the good bot gets the test clock's long start-up on a loaded machine.
				c.bad.Launch.StartTimeout = 300 * time.Millisecond
			}
			cfg := testConfig(t, 2, c.bad, good)
			rep, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			requireNoLeftovers(t)
			assert.Equal(t, 2, rep.Bots[0].Endings[c.want.String()], "%+v", rep.Bots[0].Endings)
			assert.Equal(t, 2, rep.Bots[1].Endings["ok"])
			for _, m := range rep.Matches {
				assert.Contains(t, m.Seats[indexOf(m, 0)].Detail, c.detail)
			}
		})
	}
}
