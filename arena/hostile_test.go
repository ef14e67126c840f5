package arena

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/arena-games/arena/engine/ivanhoe"
	_ "github.com/arena-games/arena/engine/kardinal"
	_ "github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/testuser"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// hostileClock is short where a case waits for it (a hang shows within a second); the
// start-up and the bank, which no case exhausts on purpose, are long, so that a loaded
// machine's slow starts and OOM kills are never taken for timeouts. The good bots
// beside the hostile one play on it, so it is scaled (testkit.ClockScaleEnv); the bots
// that must outlast it scale their delays alike.
var hostileClock = scaledClock(Clock{Decision: 500 * time.Millisecond, Bank: time.Minute, Startup: 30 * time.Second,
	Shutdown: 300 * time.Millisecond, Grace: 50 * time.Millisecond})

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
	// detail, when set, is a pattern the hostile seat's forfeit detail must match: a
	// timeout at the decision it misbehaves in is not one at the start.
	detail string
	// needs lists layers of which at least one must be active for the case to run at
	// all (its harm must be bounded); blocks lists layers of which one must be active
	// to prove the action was blocked (the case runs either way).
	needs, blocks []string
	// check looks at the bot's kept stderr when a blocking layer is active.
	check func(t *testing.T, stderr string, env hostileEnv)
	// decision, when set, is the decision clock: long enough that the sandbox's answer
	// (the OOM killer) always comes before the deadline's.
	decision time.Duration
	// parallel and deals, when set, replace the run's matches at once (2) and its
	// deals (1); shutdown replaces the clock's.
	parallel, deals int
	shutdown        time.Duration
}

// decisionTimeout is the detail of a decision's timeout.
const decisionTimeout = `^no answer before the deadline of `

type hostileEnv struct {
	outside  string
	accepted func() int
	// victims are the files the bot must not change, with their modes; datagrams
	// counts what reached the UDP listener; hostInit is the host's /proc/1/cmdline.
	victims   map[string]os.FileMode
	datagrams func() int
	hostInit  string
	secrets   []string
	// active are the layers of the run; hostile are the hostile seats' endings, as
	// "ending: detail".
	active  map[string]bool
	hostile []string
	// hostSocket reports whether a connection reached the host's socket.
	hostSocket func() bool
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
		case "bomb:2", "hog:2", "net:1", "write:1", "escape:2", "udp:1", "daemon:1", "sockets:1", "fill:1", "read:1", "unix:1":
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
	{name: "hang forever", mode: "hang:2", want: []Ending{Timeout}, detail: decisionTimeout},
	{name: "ignore the deadline and compute", mode: "compute:2", want: []Ending{Timeout}, detail: decisionTimeout},
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
		needs: []string{sandbox.Subreaper, sandbox.PIDNamespace, sandbox.CgroupProcesses}},
	// A fork bomb takes every pid the bot may have; the bot's own runtime may then
	// fail to make a thread (a crash) or be starved of CPU (a timeout), or it plays on.
	{name: "fork bomb", mode: "bomb:2", want: []Ending{OK, Timeout, Crash},
		needs: []string{sandbox.CgroupProcesses, sandbox.RlimitProcs},
		check: func(t *testing.T, stderr string, _ hostileEnv) {
			assert.Regexp(t, `(?i)fork|resource temporarily unavailable`, stderr, "the bomb was refused processes")
		}},
	// It gets the long clock of every case that expects no timeout: without a memory
	// cgroup, filling the address-space limit (2.25 GiB) takes a loaded machine more
	// than 5 s.
	{name: "memory without bound", mode: "hog:2", want: []Ending{Crash},
		needs: []string{sandbox.CgroupMemory, sandbox.Rlimits}},
	{name: "open a network connection", mode: "net:1", want: []Ending{OK},
		blocks: []string{sandbox.NetNamespace, sandbox.LandlockNet},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: connect refused")
			assert.NotContains(t, stderr, "probe: connected")
			assert.Zero(t, env.accepted(), "the listener saw no connection")
		}},
	{name: "chmod and chown another bot's program, the arena binary and the database", mode: "chmod:1", want: []Ending{OK},
		blocks: []string{sandbox.OwnUID, sandbox.ReadOnlyRoot},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.NotContains(t, stderr, " done", "every change was refused")
			for path, mode := range env.victims {
				assert.Contains(t, stderr, "probe: chmod "+path+" refused: ")
				assert.Contains(t, stderr, "probe: chown "+path+" refused: ")
				st, err := os.Stat(path)
				require.NoError(t, err)
				assert.Equal(t, mode, st.Mode().Perm(), path)
				assert.Zero(t, st.Sys().(*syscall.Stat_t).Uid, "%s keeps its owner", path)
			}
		}},
	// The ladder's files have the modes the ladder gives them (ladderHost); at basic
	// a bot running as the arena's own user is kept out by Landlock's list alone.
	{name: "read another bot's program, the database and a replay", mode: "read:1", want: []Ending{OK},
		blocks: []string{sandbox.OwnUID, sandbox.MountNamespace, sandbox.LandlockFS},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.NotContains(t, stderr, " bytes", "nothing was read")
			for _, path := range env.secrets {
				assert.Contains(t, stderr, "probe: read "+path+" refused: ")
			}
		}},
	{name: "read the host's processes", mode: "proc:1", want: []Ending{OK},
		blocks: []string{sandbox.PrivateProc},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: /proc/1/cmdline is")
			assert.NotContains(t, stderr, fmt.Sprintf("%q", env.hostInit), "the host's PID 1 is not in sight")
		}},
	{name: "connect to a world-writable unix socket of the host", mode: "unix:1", want: []Ending{OK},
		blocks: []string{sandbox.SeccompSockets, sandbox.MountNamespace},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: unix refused")
			assert.False(t, env.hostSocket(), "no connection reached the host's listener")
		}},
	{name: "send a UDP datagram", mode: "udp:1", want: []Ending{OK},
		blocks: []string{sandbox.SeccompSockets, sandbox.NetNamespace},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: udp refused")
			assert.Zero(t, env.datagrams(), "the listener got nothing")
		}},
	// A 32-bit program enters the kernel through the i386 gate, with other call numbers
	// than the filter's: the filter must refuse every call of a foreign ABI.
	{name: "open network sockets natively, with the x32 numbers and through the i386 gate", mode: "sockets:1", want: []Ending{OK},
		blocks: []string{sandbox.SeccompSockets},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			tries := regexp.MustCompile(`probe: (\w+ [^:]+): (.*)`).FindAllStringSubmatch(stderr, -1)
			// Once in each match the bot plays.
			per := 5 * len(attack.ABIs())
			assert.True(t, len(tries) >= per && len(tries)%per == 0, "every call was tried: %s", stderr)
			for _, try := range tries {
				assert.NotContains(t, try[2], "made", try[1])
			}
			if attack.Gate {
				assert.Contains(t, stderr, "probe: i386 socket(AF_INET): function not implemented")
			}
			assert.Zero(t, env.datagrams(), "the listener got nothing")
		}},
	// RLIMIT_FSIZE bounds one file; a bot that writes many filled the disk under the
	// replays and the ladder's database. A tmpfs of the quota's size answers ENOSPC and
	// the bot plays on; where none can be mounted the arena stops the bot.
	{name: "fill the disk in many files", mode: "fill:1", want: []Ending{OK, Crash},
		needs: []string{sandbox.DiskQuota, sandbox.DiskWatch}, blocks: []string{sandbox.DiskQuota, sandbox.DiskWatch},
		check: checkDiskFiller},
	// The runner's check for leftovers proves the daemon died with the bot.
	{name: "leave a setsid daemon behind", mode: "daemon:1", want: []Ending{OK},
		needs: []string{sandbox.Subreaper, sandbox.PIDNamespace, sandbox.CgroupProcesses},
		check: func(t *testing.T, stderr string, _ hostileEnv) {
			assert.Contains(t, stderr, "probe: daemon done", "the daemon started")
		}},
	// A long clock: 15 MiB take a while to send, and the cap, not the clock, must end it.
	{name: "flood header metadata", mode: "headers", want: []Ending{Protocol}, decision: 5 * time.Second},
	// Two deals one match at a time, and a shutdown clock of 5 s: if the result were
	// told before the next match, each would wait that long.
	{name: "hang in EndMatch", mode: "endhang", want: []Ending{OK}, parallel: 1, deals: 2, shutdown: 5 * time.Second,
		check: func(t *testing.T, stderr string, _ hostileEnv) {
			assert.Contains(t, stderr, "probe: a match started while an EndMatch was pending")
			for _, m := range regexp.MustCompile(`EndMatch deadline in (-?\d+) ms`).FindAllStringSubmatch(stderr, -1) {
				ms, _ := strconv.Atoi(m[1])
				assert.LessOrEqual(t, time.Duration(ms)*time.Millisecond, protocol.EndMatchTimeout)
			}
			assert.Contains(t, stderr, "EndMatch deadline in")
		}},
	{name: "write outside its directory", mode: "write:1", want: []Ending{OK},
		blocks: []string{sandbox.LandlockFS, sandbox.ReadOnlyRoot},
		check: func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: write outside refused")
			// Landlock says EACCES; the read-only mount, which comes first, EROFS; where
			// the folder lies below a host folder the mount view covers, it is not there.
			assert.Regexp(t, "permission denied|read-only file system|no such file or directory", stderr)
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
	udp, datagrams := udpListener(t)
	sock, hostSocket := testkit.HostSocket(t)
	host := ladderHost(t)
	sb.Hide = append(sb.Hide, host.data)
	replays := filepath.Join(testDir(t), "replays")
	secrets := append(host.secrets, filepath.Join(replays, "d0000-r0.jsonl"))

	bad := testEntrant(t, "hostile", c.mode)
	bad.Launch.Env = append(bad.Launch.Env, "ARENA_TEST_ADDR="+ln.Addr().String(), "ARENA_TEST_OUTSIDE="+outside,
		"ARENA_TEST_UDP="+udp, "ARENA_TEST_VICTIMS="+strings.Join(host.victimPaths(), ":"),
		"ARENA_TEST_SECRETS="+strings.Join(secrets, ":"), "ARENA_TEST_UNIX="+sock)
	entrants := []Entrant{bad}
	for i := 1; i < players; i++ {
		entrants = append(entrants, testEntrant(t, "good"+string(rune('0'+i)), "random"))
	}
	cfg := Config{Game: game, Launcher: protocol.Launcher{}, Entrants: entrants, Games: players * max(c.deals, 1), Seed: 7, Parallel: 2, Clock: hostileClock,
		KeepMatches: true, ReplayDir: replays, Sandbox: sb, MaxForfeitShare: -1}
	if !slices.Contains(c.want, Timeout) {
		// A bot that answers, crashes or breaks the protocol is never waited for, so a
		// long deadline costs nothing; a short one turned a crash seen late on a loaded
		// machine (a child holding the pipes, a slow OOM) into a timeout.
		cfg.Clock.Decision = testkit.Scaled(20 * time.Second)
	}
	if c.decision > 0 {
		cfg.Clock.Decision = testkit.Scaled(c.decision)
	}
	if c.parallel > 0 {
		cfg.Parallel = c.parallel
	}
	if c.shutdown > 0 {
		cfg.Clock.Shutdown = c.shutdown
	}
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err, "the arena survives the bot")
	t.Logf("%d matches in %s", len(rep.Matches), time.Since(start).Round(time.Millisecond))
	requireNoLeftovers(t)

	require.Len(t, rep.Matches, cfg.Games, "every rotation was played")
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
			if c.detail != "" {
				assert.Regexp(t, c.detail, seat.Detail, "%s", m.ID)
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
	var hostile []string
	for _, m := range rep.Matches {
		for _, seat := range m.Seats {
			if seat.Entrant == 0 {
				hostile = append(hostile, seat.Ending.String()+": "+seat.Detail)
			}
		}
	}
	kept, _ := os.ReadFile(filepath.Join(cfg.ReplayDir, "stderr-0-hostile.log"))
	c.check(t, string(kept), hostileEnv{outside: outside, accepted: func() int { return len(accepted) },
		victims: host.victims, datagrams: datagrams, hostInit: host.init, secrets: secrets, active: active, hostile: hostile,
		hostSocket: hostSocket})
}

// checkDiskFiller: with a tmpfs the filler's writes stop at the quota (ENOSPC) and it
// plays on; with a watched quota it is stopped, a crash whose detail names the quota.
func checkDiskFiller(t *testing.T, stderr string, env hostileEnv) {
	quota := sandbox.DefaultLimits.Disk
	require.NotEmpty(t, env.hostile)
	if env.active[sandbox.DiskWatch] {
		t.Logf("the filler's seats: %q", env.hostile)
		for _, h := range env.hostile {
			assert.Regexp(t, `^crash: stopped by the arena: the bot wrote [0-9.]+ MiB into its scratch directory, past its disk quota of 64 MiB \(--bot-disk\)`, h)
		}
		return
	}
	fill := regexp.MustCompile(`probe: fill wrote (\d+) bytes in (\d+) files, then: (.*)`)
	require.Regexp(t, fill, stderr)
	// The quota is each process's (one per seat): their stderr is kept one after the
	// other.
	for _, proc := range strings.Split(stderr, "--- another process ---") {
		var held int64 // every fill adds files of its own
		for _, f := range fill.FindAllStringSubmatch(proc, -1) {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			held += n
			assert.Contains(t, f[3], "no space left on device")
		}
		assert.LessOrEqual(t, held, quota, "no more than the quota: %s", proc)
	}
	for _, h := range env.hostile {
		assert.Equal(t, "ok: ", h, "the filler plays on")
	}
}

// Without root the arena cannot mount a tmpfs: the disk filler runs again as a user
// without privilege, where the arena measures its directory and stops it.
func TestADiskFillerIsStoppedWithoutRoot(t *testing.T) {
	if !testuser.Rerun(t, "^TestHostileBotsAtTheBasicLevel$/^fill_the_disk") {
		t.Skip("not root: TestHostileBotsAtTheBasicLevel runs the filler with a watched quota itself")
	}
}

// hostFiles is what a ladder host keeps: a data directory (stored bots, the database,
// replays) with the modes the ladder gives it, and the arena binary where anyone may
// run it.
type hostFiles struct {
	data    string
	victims map[string]os.FileMode
	secrets []string
	init    string
}

func (h hostFiles) victimPaths() []string {
	var out []string
	for p := range h.victims {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ladderHost lays out a ladder's data as an older ladder left it, open to all (the
// database 0644, programs 0555 in 0755 folders), in a folder open to all, and opens
// it with the ladder's store, as a ladder upgraded to this build is: the bots meet
// the modes the ladder's own code gives its files, not modes a test picked.
func ladderHost(t *testing.T) hostFiles {
	dir := testDir(t)
	// The test's own directories open to all, as /usr/local/bin is: only the sandbox
	// and the ladder's modes keep the bot from what is in them.
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	h := hostFiles{data: filepath.Join(dir, "data"), victims: map[string]os.FileMode{}}
	require.NoError(t, os.Mkdir(h.data, 0o755))
	db := filepath.Join(h.data, "ladder.db")
	st, err := store.Open(db)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	file := func(path string, mode os.FileMode, content string) string {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), mode))
		require.NoError(t, os.Chmod(path, mode))
		return path
	}
	other := file(filepath.Join(h.data, "bots", "0123abcd"), 0o555, "#!/bin/sh\nexit 0\n")
	replay := file(filepath.Join(h.data, "replays", "ivanhoe", "block-1", "d0000-r0.jsonl"), 0o644, `{"type":"match"}`)
	bin := file(filepath.Join(dir, "bin", "arena"), 0o755, "#!/bin/sh\n")
	for _, d := range []string{"bots", "replays", "replays/ivanhoe", "replays/ivanhoe/block-1"} {
		require.NoError(t, os.Chmod(filepath.Join(h.data, d), 0o755))
	}
	require.NoError(t, os.Chmod(db, 0o644))
	st, err = store.Open(db)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	for _, p := range []string{other, db, bin} {
		h.victims[p] = mode(t, p)
	}
	h.secrets = []string{other, db, replay}
	init, err := os.ReadFile("/proc/1/cmdline")
	require.NoError(t, err)
	h.init = string(init)
	return h
}

func mode(t *testing.T, path string) os.FileMode {
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Mode().Perm()
}

// udpListener counts the datagrams that reach it, on loopback.
func udpListener(t *testing.T) (string, func() int) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { pc.Close() })
	var n atomic.Int32
	go func() {
		buf := make([]byte, 512)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			n.Add(1)
		}
	}()
	return pc.LocalAddr().String(), func() int { return int(n.Load()) }
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

// TestHostileActionsSucceedWithoutTheSandbox runs the trespassing bots at the none
// level, where only the host's own layers apply: each action goes through, so the
// hostile cases above fail when the layers that block them are off.
func TestHostileActionsSucceedWithoutTheSandbox(t *testing.T) {
	cases := []struct {
		mode string
		want func(t *testing.T, stderr string, env hostileEnv)
	}{
		{"chmod:1", func(t *testing.T, stderr string, env hostileEnv) {
			for path := range env.victims {
				assert.Contains(t, stderr, "probe: chmod "+path+" done")
			}
		}},
		{"read:1", func(t *testing.T, stderr string, env hostileEnv) {
			for _, path := range env.secrets {
				assert.Contains(t, stderr, "probe: read "+path+": ")
			}
		}},
		{"proc:1", func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, fmt.Sprintf("%q", env.hostInit))
		}},
		{"unix:1", func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: unix done")
			assert.True(t, env.hostSocket(), "the host's listener has the connection")
		}},
		{"udp:1", func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: udp done")
			require.Eventually(t, func() bool { return env.datagrams() > 0 }, 10*time.Second, 10*time.Millisecond)
		}},
		{"sockets:1", func(t *testing.T, stderr string, env hostileEnv) {
			assert.Contains(t, stderr, "probe: native socket(AF_INET): made, sent a datagram")
			if attack.Gate {
				assert.Contains(t, stderr, "probe: i386 socket(AF_INET): made, sent a datagram")
			}
			require.Eventually(t, func() bool { return env.datagrams() > 0 }, 10*time.Second, 10*time.Millisecond)
		}},
		{"daemon:1", func(t *testing.T, stderr string, _ hostileEnv) {
			assert.Contains(t, stderr, "probe: daemon done")
			left := leftovers(t)
			assert.NotEmpty(t, left, "the daemon outlived its bot")
			killLeftovers(t)
		}},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			udp, datagrams := udpListener(t)
			sock, hostSocket := testkit.HostSocket(t)
			host := ladderHost(t)
			replays := filepath.Join(testDir(t), "replays")
			secrets := append(host.secrets, filepath.Join(replays, "d0000-r0.jsonl"))
			bad := testEntrant(t, "hostile", c.mode)
			bad.Launch.Env = append(bad.Launch.Env, "ARENA_TEST_UDP="+udp, "ARENA_TEST_UNIX="+sock,
				"ARENA_TEST_VICTIMS="+strings.Join(host.victimPaths(), ":"), "ARENA_TEST_SECRETS="+strings.Join(secrets, ":"))
			// One match at a time, so that the second reads the first's replay.
			cfg := Config{Game: "ivanhoe", Launcher: protocol.Launcher{}, Entrants: []Entrant{bad, testEntrant(t, "good", "random")}, Games: 2, Seed: 7,
				Parallel: 1, Clock: hostileClock, ReplayDir: replays, Sandbox: testSandbox(t, sandbox.None), MaxForfeitShare: -1}
			_, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			kept, _ := os.ReadFile(filepath.Join(replays, "stderr-0-hostile.log"))
			c.want(t, string(kept), hostileEnv{victims: host.victims, datagrams: datagrams, hostInit: host.init, secrets: secrets,
				hostSocket: hostSocket})
		})
	}
}

// killLeftovers kills the processes carrying this test's marker.
func killLeftovers(t *testing.T) {
	for _, l := range leftovers(t) {
		pid, _, _ := strings.Cut(l, " ")
		if n, err := strconv.Atoi(pid); err == nil {
			_ = syscall.Kill(n, syscall.SIGKILL)
		}
	}
}
