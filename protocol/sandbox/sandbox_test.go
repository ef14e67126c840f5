package sandbox

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/testlock"
)

// The test binary is its own helper and its own "bot": started with probeEnv set, it
// reports what it may do as JSON on stdout.
const probeEnv = "ARENA_SANDBOX_TEST_PROBE"

func TestMain(m *testing.M) {
	testkit.CoverChild(len(os.Args) > 1 && os.Args[1] == HelperArg)
	RunHelper(os.Args)
	if os.Getenv(probeEnv) != "" {
		probeSelf()
		os.Exit(0)
	}
	if root := os.Getenv(noneEnv); root != "" {
		prepareAtLevelNone(root)
	}
	if os.Getenv(fillEnv) != "" {
		fillSelf()
	}
	if root := os.Getenv(holdEnv); root != "" {
		holdBox(root)
	}
	release := testlock.Heavy() // sandboxed bots, hostile ones among them
	code := m.Run()
	release()
	os.Exit(code)
}

// facts is what a probe found inside the sandbox.
type facts struct {
	Pid         int      `json:"pid"`
	NoNewPrivs  string   `json:"no_new_privs"`
	CapEff      string   `json:"cap_eff"`
	NoFile      uint64   `json:"nofile"`
	Core        uint64   `json:"core"`
	CPU         uint64   `json:"cpu"`
	Interfaces  []string `json:"interfaces"`
	Dial        string   `json:"dial"`
	WriteOut    string   `json:"write_outside"`
	WriteIn     string   `json:"write_inside"`
	Cgroup      string   `json:"cgroup"`
	Env         []string `json:"env"`
	Dir         string   `json:"dir"`
	KillInit    string   `json:"kill_init"`
	TmpDir      string   `json:"tmpdir"`
	SocketDir   string   `json:"socket_dir"`
	HasPlanLeft bool     `json:"plan_left"`
	Siblings    []string `json:"siblings"`
	OtherBot    string   `json:"other_bot"`
	PPid        int      `json:"ppid"`
	Uid         string   `json:"uid"`
	Groups      string   `json:"groups"`
	WriteRoot   string   `json:"write_root"`
	Init        string   `json:"init"`
	Procs       int      `json:"procs"`
	Secret      string   `json:"secret"`
	UDP         string   `json:"udp"`
	// Sockets are the network sockets and io_uring asked for natively, with the x32
	// numbers and through the i386 gate.
	Sockets    []attack.Attempt `json:"sockets"`
	HostFile   string           `json:"host_file"`
	HostSocket string           `json:"host_socket"`
	SocketSeen string           `json:"socket_seen"`
	Passwd     string           `json:"passwd"`
	Given      string           `json:"given"`
	Signal     string           `json:"signal"`
	BigFile    string           `json:"big_file"`
	PrivateEtc string           `json:"private_etc"`
	// Mounts are the mount points of the bot's mount namespace.
	Mounts []string `json:"mounts"`
	// NetNS names the bot's network namespace; FD3 is what its descriptor 3 is (the
	// helper's made-ahead namespace must not reach it).
	NetNS string `json:"netns"`
	FD3   string `json:"fd3"`
}

func probeSelf() {
	var f facts
	f.Pid = os.Getpid()
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "NoNewPrivs:"); ok {
			f.NoNewPrivs = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			f.CapEff = strings.TrimSpace(v)
		}
	}
	var r syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r)
	f.NoFile = r.Cur
	_ = syscall.Getrlimit(syscall.RLIMIT_CORE, &r)
	f.Core = r.Max
	_ = syscall.Getrlimit(syscall.RLIMIT_CPU, &r)
	f.CPU = r.Cur
	ifs, _ := net.Interfaces()
	for _, i := range ifs {
		f.Interfaces = append(f.Interfaces, i.Name)
	}
	if c, err := net.Dial("tcp", os.Getenv("PROBE_ADDR")); err != nil {
		f.Dial = err.Error()
	} else {
		f.Dial = "connected"
		c.Close()
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("PROBE_OUTSIDE"), "escaped"), nil, 0o644); err != nil {
		f.WriteOut = err.Error()
	} else {
		f.WriteOut = "written"
	}
	if err := os.WriteFile("inside", nil, 0o644); err != nil {
		f.WriteIn = err.Error()
	} else {
		f.WriteIn = "written"
	}
	cg, _ := os.ReadFile("/proc/self/cgroup")
	f.Cgroup = string(cg)
	f.Env = os.Environ()
	f.Dir, _ = os.Getwd()
	f.TmpDir, f.SocketDir = os.Getenv("TMPDIR"), os.Getenv("PLUGIN_UNIX_SOCKET_DIR")
	_, f.HasPlanLeft = os.LookupEnv(PlanEnv)
	entries, _ := os.ReadDir(filepath.Dir(f.Dir))
	for _, e := range entries {
		f.Siblings = append(f.Siblings, e.Name())
	}
	probeIdentityAndWorld(&f)
	_ = json.NewEncoder(os.Stdout).Encode(f)
}

// probeIdentityAndWorld finds who the probe is and what it can see and reach.
func probeIdentityAndWorld(f *facts) {
	f.PPid = os.Getppid()
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "Uid:"); ok {
			f.Uid = strings.Fields(v)[0]
		}
		if v, ok := strings.CutPrefix(line, "Groups:"); ok {
			f.Groups = strings.TrimSpace(v)
		}
	}
	f.NetNS, _ = os.Readlink("/proc/self/ns/net")
	fd3, err := os.Readlink("/proc/self/fd/3")
	f.FD3 = errText(err, fd3)
	// Interfaces as the bot's own network namespace has them (no netlink needed).
	dev, _ := os.ReadFile("/proc/self/net/dev")
	for _, line := range strings.Split(string(dev), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && !strings.Contains(name, "|") {
			f.Interfaces = append(f.Interfaces, strings.TrimSpace(name))
		}
	}
	// Beside its own program: a folder the bot sees at every level.
	exe, _ := os.Executable()
	f.WriteRoot = errText(os.WriteFile(filepath.Join(filepath.Dir(exe), "again"), nil, 0o644), "written")
	init, err := os.ReadFile("/proc/1/cmdline")
	f.Init = errText(err, strings.ReplaceAll(string(init), "\x00", " "))
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			f.Procs++
		}
	}
	secret, err := os.ReadFile(os.Getenv("PROBE_SECRET"))
	f.Secret = errText(err, string(secret))
	c, err := net.Dial("udp", "127.0.0.1:9")
	f.UDP = errText(err, "opened")
	if c != nil {
		c.Close()
	}
	f.Sockets = attack.Sockets("")
	f.Mounts, _ = mountPoints()
	if gone := os.Getenv("PROBE_MOUNT_GOES"); gone != "" {
		// The helper unmounts the other bots' copies once this bot is started.
		poll.Eventually(func() bool {
			f.Mounts, _ = mountPoints()
			return !slices.Contains(f.Mounts, gone)
		})
	}
	probeTheHost(f)
}

// probeTheHost tries the host's files and sockets that only an allowlist keeps from
// the bot: each is open to every user.
func probeTheHost(f *facts) {
	_, err := os.Stat(os.Getenv("PROBE_OTHER"))
	f.OtherBot = errText(err, "there")
	b, err := os.ReadFile(os.Getenv("PROBE_HOST_FILE"))
	f.HostFile = errText(err, string(b))
	c, err := net.Dial("unix", os.Getenv("PROBE_HOST_SOCKET"))
	f.HostSocket = errText(err, "connected")
	if c != nil {
		c.Close()
	}
	// Landlock does not govern a path's lookup: only a mount view can hide the file.
	_, err = os.Stat(os.Getenv("PROBE_HOST_SOCKET"))
	f.SocketSeen = errText(err, "there")
	b, err = os.ReadFile("/etc/passwd")
	f.Passwd = errText(err, string(b))
	// Signal 0 only asks whether the arena could be signalled: it harms nothing.
	pid, _ := strconv.Atoi(os.Getenv("PROBE_HOST_PID"))
	f.Signal = errText(syscall.Kill(pid, 0), "sent")
	f.BigFile = errText(os.WriteFile("big", make([]byte, probeFileSize+1), 0o644), "written")
	if p := os.Getenv("PROBE_GIVEN"); p != "" {
		b, err = os.ReadFile(p)
		f.Given = errText(err, string(b))
	}
	if p := os.Getenv("PROBE_PRIVATE_ETC"); p != "" {
		b, err = os.ReadFile(p)
		f.PrivateEtc = errText(err, string(b))
	}
}

func errText(err error, ok string) string {
	if err != nil {
		return err.Error()
	}
	return ok
}

// probeFileSize is the largest file the probe may write (RLIMIT_FSIZE).
const probeFileSize = 1 << 20

func testConfig(t *testing.T, level Level) Config {
	return Config{Level: level, Helper: testHelper(t), Limits: Limits{Files: 77, Memory: 128 << 20, Processes: 32, FileSize: probeFileSize}}
}

// helperEnv names another helper program for the tests (the arena-sandbox program, see
// TestTheHelperProgramDoesWhatTheLayersSay); by default the test binary is its own.
const helperEnv = "ARENA_SANDBOX_TEST_HELPER"

func testHelper(t *testing.T) []string {
	if h := os.Getenv(helperEnv); h != "" {
		return []string{h, HelperArg}
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	return []string{exe, HelperArg}
}

// runProbe starts the probe in a box of the level and returns what it found; env is
// added to the probe's.
func runProbe(t *testing.T, level Level, env ...string) (*Box, facts) {
	return runProbeIn(t, testConfig(t, level), env...)
}

// runProbeIn starts the probe in a box of c, with a hidden folder added.
func runProbeIn(t *testing.T, c Config, env ...string) (*Box, facts) {
	// Open to everyone, so that only the layer under test keeps the bot out.
	secret := filepath.Join(openDir(t), "ladder.db")
	require.NoError(t, os.WriteFile(secret, []byte("hidden cards"), 0o644))
	sock, reached := testkit.HostSocket(t)
	hostFile := filepath.Join(filepath.Dir(sock), "notes")
	require.NoError(t, os.WriteFile(hostFile, []byte("the host's"), 0o644))
	c.Hide = append(c.Hide, filepath.Dir(secret))
	box, err := c.Prepare()
	require.NoError(t, err)
	t.Cleanup(box.Cleanup)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	outside := openDir(t)
	exe, _ := os.Executable()
	env = append(env, "PATH=/usr/bin:/bin", probeEnv+"=1", "PROBE_ADDR="+ln.Addr().String(), "PROBE_OUTSIDE="+outside,
		"PROBE_SECRET="+secret, "PROBE_HOST_FILE="+hostFile, "PROBE_HOST_SOCKET="+sock, "PROBE_HOST_PID="+strconv.Itoa(os.Getpid()))
	out := runInBox(t, box, exe, env...)
	var f facts
	require.NoError(t, json.Unmarshal(out, &f), string(out))
	if f.HostSocket == "connected" {
		assert.True(t, reached(), "the probe says it connected, so the host's listener has the connection")
	} else {
		assert.False(t, reached(), "the probe says %q, yet the host's listener has a connection", f.HostSocket)
	}
	return box, f
}

// openDir is a temporary directory that every user may enter and write to.
func openDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	return dir
}

// requireLayer skips, with the machine's reason, when a layer is missing.
func requireLayer(t *testing.T, box *Box, layer string) {
	t.Helper()
	for _, s := range box.Layers() {
		if s.Layer == layer {
			if !s.Active {
				t.Skipf("%s is missing on this machine: %s", layer, s.Reason)
			}
			return
		}
	}
	t.Fatalf("layer %s was not asked for", layer)
}

func TestEveryLayerDoesWhatItSays(t *testing.T) {
	// Another bot's directory, there while the probe runs.
	other, err := testConfig(t, Auto).Prepare()
	require.NoError(t, err)
	defer other.Cleanup()
	box, f := runProbe(t, Auto, "PROBE_OTHER="+other.Dir)
	for _, s := range box.Layers() {
		t.Logf("%-20s active=%v %s", s.Layer, s.Active, s.Reason)
	}
	t.Run("the plan does not reach the bot", func(t *testing.T) {
		assert.False(t, f.HasPlanLeft)
		assert.Equal(t, box.Dir, f.Dir, "the bot works in its scratch directory")
		assert.Equal(t, box.Dir, f.TmpDir)
		assert.Equal(t, box.Dir, f.SocketDir)
	})
	t.Run(Rlimits, func(t *testing.T) {
		requireLayer(t, box, Rlimits)
		assert.Equal(t, uint64(77), f.NoFile)
		assert.Zero(t, f.Core, "no core dumps")
		assert.Equal(t, uint64(3600), f.CPU, "the default CPU time")
		assert.Contains(t, f.BigFile, "file too large", "a file past Limits.FileSize")
	})
	t.Run("signals", func(t *testing.T) {
		if !box.Active(OwnUID) && !box.Active(LandlockScope) && !box.Active(PIDNamespace) {
			requireLayer(t, box, LandlockScope)
		}
		assert.NotEqual(t, "sent", f.Signal, "the bot cannot signal the arena")
	})
	t.Run(NoNewPrivs, func(t *testing.T) {
		requireLayer(t, box, NoNewPrivs)
		assert.Equal(t, "1", f.NoNewPrivs)
	})
	t.Run(DropCaps, func(t *testing.T) {
		requireLayer(t, box, DropCaps)
		assert.Equal(t, "0000000000000000", f.CapEff)
	})
	t.Run(LandlockFS, func(t *testing.T) {
		// At the basic level: otherwise the read-only mount refuses first.
		box, f := runProbe(t, Basic)
		requireLayer(t, box, LandlockFS)
		assert.Contains(t, f.WriteOut, "permission denied")
		assert.Equal(t, "written", f.WriteIn)
	})
	t.Run(LandlockNet+" or "+NetNamespace, func(t *testing.T) {
		if !box.Active(LandlockNet) && !box.Active(NetNamespace) {
			requireLayer(t, box, NetNamespace)
		}
		assert.NotEqual(t, "connected", f.Dial)
	})
	t.Run(NetNamespace, func(t *testing.T) {
		requireLayer(t, box, NetNamespace)
		assert.Equal(t, []string{"lo"}, f.Interfaces, "only a loopback of its own")
	})
	t.Run(PIDNamespace, func(t *testing.T) {
		requireLayer(t, box, PIDNamespace)
		assert.Equal(t, 1, f.PPid, "the helper is the first process of the bot's own PID namespace, and its parent")
	})
	t.Run(MountNamespace, func(t *testing.T) {
		requireLayer(t, box, MountNamespace)
		assert.Contains(t, f.OtherBot, "no such file", "no other bot's directory is in sight")
		_, err = os.Stat(other.Dir)
		require.NoError(t, err, "the host sees every directory")
		assert.Contains(t, f.Secret, "no such file", "a hidden path is not there at all")
		assert.Contains(t, f.HostFile, "no such file", "the host's temporary files are covered")
		assert.Contains(t, f.SocketSeen, "no such file", "so is a socket of the host's below them")
	})
	t.Run(ReadOnlyRoot, func(t *testing.T) {
		requireLayer(t, box, ReadOnlyRoot)
		// The mount refuses before Landlock is asked: EROFS, not EACCES.
		assert.Contains(t, f.WriteRoot, "read-only file system")
		assert.Equal(t, "written", f.WriteIn, "the scratch directory stays writable")
	})
	t.Run(PrivateProc, func(t *testing.T) {
		requireLayer(t, box, PrivateProc)
		assert.Contains(t, f.Init, strings.Join(testHelper(t), " "), "PID 1 is the bot's helper, not the host's init")
		assert.Less(t, f.Procs, 5, "only the helper and the bot are in sight")
	})
	t.Run(OwnUID, func(t *testing.T) {
		requireLayer(t, box, OwnUID)
		assert.Equal(t, strconv.Itoa(box.UID()), f.Uid)
		assert.NotEqual(t, "0", f.Uid)
		assert.Empty(t, f.Groups, "no supplementary groups")
		st, err := os.Stat(box.Dir)
		require.NoError(t, err)
		assert.Equal(t, uint32(box.UID()), st.Sys().(*syscall.Stat_t).Uid, "the bot owns its scratch directory")
	})
	t.Run(SeccompSockets, func(t *testing.T) {
		requireLayer(t, box, SeccompSockets)
		assert.Contains(t, f.UDP, "operation not permitted")
		assertNoSocket(t, f.Sockets)
		assert.Contains(t, f.HostSocket, "operation not permitted")
	})
	t.Run(CgroupMemory, func(t *testing.T) {
		requireLayer(t, box, CgroupMemory)
		assert.Regexp(t, `memory[^\n]*/arena-bot-`, f.Cgroup)
	})
	t.Run(CgroupProcesses, func(t *testing.T) {
		requireLayer(t, box, CgroupProcesses)
		assert.Regexp(t, `pids[^\n]*/arena-bot-`, f.Cgroup)
	})
}

func TestEachBotEntersANetworkNamespaceMadeAheadForItAlone(t *testing.T) {
	if Detect().userNS {
		t.Skip("in a user namespace of its own the clone makes the bot's network namespace")
	}
	host, err := os.Readlink("/proc/self/ns/net")
	require.NoError(t, err)
	var seen []string
	for range aheadNetNS + 1 { // one more than are held: the pool is refilled
		poll.Until(t, "the made-ahead namespaces are ready", func() bool { return len(aheadNS) == aheadNetNS })
		box, f := runProbe(t, Auto)
		requireLayer(t, box, NetNamespace)
		assert.Equal(t, netnsFD, box.plan.NetNS, "the helper entered one made ahead")
		assert.Zero(t, box.SysProcAttr().Cloneflags&syscall.CLONE_NEWNET, "and the clone made none")
		assert.Equal(t, []string{"lo"}, f.Interfaces, "only a loopback of its own")
		assert.NotEmpty(t, f.NetNS)
		assert.NotEqual(t, host, f.NetNS, "not the host's")
		assert.NotContains(t, seen, f.NetNS, "nor another bot's")
		assert.NotContains(t, f.FD3, "net:", "the bot holds no descriptor of a namespace")
		seen = append(seen, f.NetNS)
		// Nothing makes the next one while the bot starts; once it has started (as
		// protocol.Launch says after the handshake), the pool is refilled.
		assert.Len(t, aheadNS, aheadNetNS-1, "no namespace is made while a bot starts")
		box.Started()
	}
}

func TestTheNoneLevelKeepsOnlyTheHostLayers(t *testing.T) {
	box, f := runProbe(t, None)
	var active []string
	for _, s := range box.Layers() {
		assert.True(t, s.Active, s.Layer)
		active = append(active, s.Layer)
	}
	assert.Equal(t, always, active)
	assert.Equal(t, "written", f.WriteOut, "nothing confines the files at level none")
	assert.Equal(t, "0", f.NoNewPrivs)
	assert.Equal(t, "the host's", f.HostFile, "nor what it reads")
	assert.Equal(t, "sent", f.Signal, "nor whom it signals")
	assert.Equal(t, "connected", f.HostSocket, "nor the sockets it reaches")
}

const noneEnv = "ARENA_SANDBOX_TEST_NONE"

// prepareAtLevelNone prepares a box at level none in a process of its own and says
// whether the machine's probe ran.
func prepareAtLevelNone(root string) {
	b, err := Config{Level: None, ScratchRoot: root}.Prepare()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	b.Cleanup()
	fmt.Printf("probed=%v\n", probe != nil)
	os.Exit(0)
}

// The level none confines nothing, so a run at it does not pay for the probe (its
// forks in new namespaces and its test cgroups): it cost a run's start 2 ms and slowed
// the bots starting beside it.
func TestTheNoneLevelRunsNoProbe(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), noneEnv+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "probed=false\n", string(out))
}

func TestTheBasicLevelNeedsNoPrivilege(t *testing.T) {
	box, f := runProbe(t, Basic)
	for _, s := range box.Layers() {
		assert.NotContains(t, strictLayers, s.Layer, "basic asks for no namespace or cgroup")
	}
	t.Run(SeccompSockets+" without a network namespace", func(t *testing.T) {
		requireLayer(t, box, SeccompSockets)
		assert.Contains(t, f.UDP, "operation not permitted")
		assertNoSocket(t, f.Sockets)
	})
	t.Run("signals without a PID namespace", func(t *testing.T) {
		if !box.Active(OwnUID) {
			requireLayer(t, box, LandlockScope)
		}
		assert.Contains(t, f.Signal, "operation not permitted", "the bot cannot signal the arena")
	})
}

// TestABotAtBasicReadsOnlyTheSystemItsProgramAndScratch: without a mount namespace,
// Landlock alone keeps the bot to a list (the system's folders, /etc but its private
// entries, its program and its scratch directory). A file any user may read elsewhere,
// such as a ladder database left 0644 in a folder open to all, is refused.
func TestABotAtBasicReadsOnlyTheSystemItsProgramAndScratch(t *testing.T) {
	private := readablePrivateEtc()
	box, f := runProbe(t, Basic, "PROBE_PRIVATE_ETC="+private)
	requireLayer(t, box, LandlockFS)
	assert.Contains(t, f.Secret, "permission denied", "the ladder's database")
	assert.Contains(t, f.HostFile, "permission denied", "a host's file open to all")
	assert.Contains(t, f.Init, "permission denied", "the host's /proc")
	assert.True(t, strings.HasPrefix(f.Passwd, "root:"), "the C library's files are there: %q", f.Passwd)
	if private == "" {
		t.Log("no private entry of /etc on this machine is open to all: that case is not tried")
	} else {
		assert.Contains(t, f.PrivateEtc, "permission denied", private)
	}
	assert.Equal(t, "written", f.WriteIn, "its scratch directory stays its own")
}

// readablePrivateEtc is a file of /etc off the bot's list that any user may read
// (gitconfig, npmrc, pip.conf may hold tokens), "" if this machine has none.
func readablePrivateEtc() string {
	entries, _ := os.ReadDir("/etc")
	for _, e := range entries {
		p := "/etc/" + e.Name()
		if st, err := os.Stat(p); !etcReadable(e.Name()) && err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o004 != 0 {
			return p
		}
	}
	return ""
}

// TestABotAtBasicReachesNoHostSocket: Landlock does not govern connecting to a socket
// file, and at basic the host's files are in sight: the seccomp filter refuses every
// connect, so a world-writable socket of the host (in /tmp, as /run's are) is out of
// reach, and no connection reaches its listener (runProbe checks).
func TestABotAtBasicReachesNoHostSocket(t *testing.T) {
	box, f := runProbe(t, Basic)
	requireLayer(t, box, SeccompSockets)
	assert.Equal(t, "there", f.SocketSeen, "the socket file is in sight")
	assert.Contains(t, f.HostSocket, "operation not permitted")
}

// TestAFolderGivenToReadIsThereAtEveryLevel: Config.Read gives bots a folder the list
// lacks (a runtime outside /usr); at auto one below a covered host folder is bound
// back into the bot's view.
func TestAFolderGivenToReadIsThereAtEveryLevel(t *testing.T) {
	sock, _ := testkit.HostSocket(t) // a folder of /tmp open to all
	runtime := filepath.Join(filepath.Dir(sock), "runtime")
	require.NoError(t, os.Mkdir(runtime, 0o755))
	lib := filepath.Join(runtime, "lib.py")
	require.NoError(t, os.WriteFile(lib, []byte("answer = 42"), 0o644))
	for _, level := range []Level{Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			c := testConfig(t, level)
			c.Read = []string{runtime}
			box, f := runProbeIn(t, c, "PROBE_GIVEN="+lib)
			requireLayer(t, box, LandlockFS)
			assert.Equal(t, "answer = 42", f.Given)
			assert.Contains(t, f.HostFile, errNotThere(level), "the folder beside it is not given")
		})
	}
}

// errNotThere is how a host file outside the list fails at a level: Landlock refuses
// it at basic; at auto the mount view has covered it first.
func errNotThere(level Level) string {
	if level == Basic {
		return "permission denied"
	}
	return "no such file"
}

// A folder to read that holds what bots must not see would give it away: Prepare
// refuses it in one line.
func TestAFolderToReadThatHoldsAHiddenOneIsRefused(t *testing.T) {
	data := t.TempDir()
	c := testConfig(t, Auto)
	c.Hide = []string{filepath.Join(data, "ladder")}
	c.Read = []string{data}
	_, err := c.Prepare()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds or lies in "+c.Hide[0])
	assert.NotContains(t, err.Error(), "\n")
}

// assertNoSocket checks that the filter refused every socket and io_uring: the native
// calls with EPERM, those of another ABI (the i386 gate, x32) with ENOSYS.
func assertNoSocket(t *testing.T, tries []attack.Attempt) {
	t.Helper()
	require.NotEmpty(t, tries)
	for _, a := range tries {
		want := "function not implemented"
		if strings.HasPrefix(a.Call, "native ") {
			want = "operation not permitted"
		}
		assert.Equal(t, want, a.Outcome, a.Call)
	}
}

// Without the filter the same calls give the bot its sockets: the assertions above
// would fail if the filter let a way into the kernel through.
func TestWithoutTheFilterTheSocketCallsSucceed(t *testing.T) {
	_, f := runProbe(t, None)
	made := map[string]bool{}
	for _, a := range f.Sockets {
		made[a.Call] = a.Made()
	}
	assert.True(t, made["native socket(AF_INET)"], "%+v", f.Sockets)
	if attack.Gate {
		assert.True(t, made["i386 socket(AF_INET)"], "the i386 gate is open on this kernel: %+v", f.Sockets)
	}
}

func TestStrictFailsWhereALayerIsMissing(t *testing.T) {
	c := testConfig(t, Strict)
	c.Helper = nil // without a helper, the helper's layers are missing
	selfHelper.Store(false)
	defer selfHelper.Store(true)
	_, err := c.Prepare()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "strict level is not available")
	assert.Contains(t, err.Error(), "no helper command")
}

func TestCleanupRemovesTheScratchDirectoryAndCgroups(t *testing.T) {
	box, err := testConfig(t, Auto).Prepare()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(box.Dir, "x"), nil, 0o644))
	var cgs []string
	for _, cg := range box.cg {
		cgs = append(cgs, cg.path)
	}
	box.Cleanup()
	_, err = os.Stat(box.Dir)
	assert.True(t, os.IsNotExist(err))
	for _, p := range cgs {
		_, err := os.Stat(p)
		assert.True(t, os.IsNotExist(err), p)
	}
}

func TestParseLevel(t *testing.T) {
	for _, name := range []string{"auto", "none", "basic", "strict"} {
		l, err := ParseLevel(name)
		require.NoError(t, err)
		assert.Equal(t, name, l.String())
	}
	_, err := ParseLevel("paranoid")
	assert.ErrorContains(t, err, "one of auto, none, basic, strict")
}

// BenchmarkStart is the cost of starting a bot process in a box of each level, the
// probe's own run included (its start is a Go program's).
func BenchmarkStart(b *testing.B) {
	exe, _ := os.Executable()
	for _, level := range []Level{None, Basic, Auto} {
		b.Run(level.String(), func(b *testing.B) {
			for range b.N {
				box, err := Config{Level: level, Helper: []string{exe, HelperArg}}.Prepare()
				require.NoError(b, err)
				name, args, env, err := box.Command("/bin/true", nil, []string{"PATH=/usr/bin:/bin"})
				require.NoError(b, err)
				cmd := exec.Command(name, args...)
				cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
				cmd.ExtraFiles = box.ExtraFiles()
				out, err := cmd.CombinedOutput()
				require.NoError(b, err, string(out))
				box.Cleanup()
			}
		})
	}
}

// BenchmarkLandlockRuleset is the helper's work for Landlock at each bot start: the
// read list (system folders, /etc's entries one by one, a program and its folder)
// against the single rule for "/" it replaced.
func BenchmarkLandlockRuleset(b *testing.B) {
	abi := Detect().LandlockABI
	if abi == 0 {
		b.Skip(Detect().LandlockReason)
	}
	exe, _ := os.Executable()
	lists := map[string]func(read uint64) []allowed{
		"allowlist": (&plan{System: systemReadable(), Program: exe, Read: []string{filepath.Dir(exe)}}).readable,
		"root-only": func(read uint64) []allowed { return []allowed{{path: "/", access: read}} },
	}
	for _, name := range []string{"root-only", "allowlist"} {
		b.Run(name, func(b *testing.B) {
			scratch := []string{b.TempDir()}
			b.ReportAllocs()
			for range b.N {
				fd, err := newRuleset(abi, scratch, lists[name])
				require.NoError(b, err)
				unix.Close(fd)
			}
		})
	}
}

// TestABotReadsItsFolderButNotTheStoresOtherPrograms: a script finds the files beside
// it (its modules), but a program in the ladder's store, whose folder holds every other
// bot's program, reads nothing beside itself. Both folders are open to all, so that
// only the sandbox decides.
func TestABotReadsItsFolderButNotTheStoresOtherPrograms(t *testing.T) {
	script := "#!/bin/sh\ncat \"$SIBLING\" 2>&1\nexit 0\n"
	for _, level := range []Level{Basic, Auto} {
		for _, stored := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stored=%v", level, stored), func(t *testing.T) {
				dir := openDir(t)
				bot := filepath.Join(dir, "bot")
				require.NoError(t, os.WriteFile(bot, []byte(script), 0o755))
				sibling := filepath.Join(dir, "other")
				require.NoError(t, os.WriteFile(sibling, []byte("the other's program"), 0o644))
				c := testConfig(t, level)
				if stored {
					c.Hide = []string{dir}
				}
				box, err := c.Prepare()
				require.NoError(t, err)
				defer box.Cleanup()
				requireLayer(t, box, LandlockFS)
				name, args, env, err := box.Command(bot, nil, []string{"PATH=/usr/bin:/bin", "SIBLING=" + sibling})
				require.NoError(t, err)
				cmd := exec.Command(name, args...)
				cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
				cmd.ExtraFiles = box.ExtraFiles()
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%s", out)
				if !stored {
					assert.Equal(t, "the other's program", string(out), "its own folder is its to read")
					return
				}
				assert.NotContains(t, string(out), "the other's program")
				assert.Regexp(t, "Permission denied|No such file", string(out))
			})
		}
	}
}

// A program in a directory the bot may not enter, readable by the arena's user alone
// (a private build, the ladder's store), still runs as the bot's own user.
func TestAPrivateProgramRunsAsTheBotsUser(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "bot")
	require.NoError(t, os.WriteFile(prog, []byte("#!/bin/sh\nid -u\n"), 0o700))
	c := testConfig(t, Auto)
	c.Hide = []string{filepath.Dir(prog)}
	box, err := c.Prepare()
	require.NoError(t, err)
	defer box.Cleanup()
	requireLayer(t, box, OwnUID)
	name, args, env, err := box.Command(prog, nil, append([]string{"PATH=/usr/bin:/bin"}, testkit.ChildEnv()...))
	require.NoError(t, err)
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
	cmd.ExtraFiles = box.ExtraFiles()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, strconv.Itoa(box.UID()), strings.TrimSpace(string(out)))
}

// A killed arena can leave a bot running in its cgroup (killed while the bot
// started): the next arena kills it and removes the cgroup.
func TestAStaleCgroupsProcessesAreKilled(t *testing.T) {
	p, why := findCgroup("pids")
	if p == nil {
		t.Skip("no pids cgroup to test with: " + why)
	}
	// A pid no process has: the highest one possible, past pid_max's default.
	dir := filepath.Join(p.parent, "arena-bot-4194999-1")
	require.NoError(t, os.Mkdir(dir, 0o755))
	t.Cleanup(func() { _ = os.Remove(dir) })
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0))

	cleanStale(p.version, p.parent)
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "the straggler was killed")
	assert.NoDirExists(t, dir)
}

// TestTheHelperProgramDoesWhatTheLayersSay runs the layer tests again with the
// arena-sandbox program as the helper, in place of this test binary: the arena uses that
// program when it lies beside it, and every layer must hold there just the same.
func TestTheHelperProgramDoesWhatTheLayersSay(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("this run is the one with the helper program")
	}
	prog := filepath.Join(t.TempDir(), "arena-sandbox")
	build := exec.Command("go", "build", "-o", prog, "../../cmd/arena-sandbox")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	cmd := exec.Command(os.Args[0], "-test.run", "^(TestEveryLayerDoesWhatItSays|TestAPrivateProgramRunsAsTheBotsUser|TestTheHelperRefusesAPlanOfOtherSandboxCode)$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"="+prog)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	// Where the bot has a PID namespace and /proc of its own, its PID 1 is the helper,
	// and the layer test checks that it is the program named.
	assert.Contains(t, string(out), "--- PASS: TestEveryLayerDoesWhatItSays (", "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestTheHelperRefusesAPlanOfOtherSandboxCode (", "%s", out)
}

// TestTheHelperRefusesAPlanOfOtherSandboxCode: a helper program left from another
// build could read a plan and apply less of it; it starts nothing and says why in one
// line.
func TestTheHelperRefusesAPlanOfOtherSandboxCode(t *testing.T) {
	box, err := testConfig(t, Basic).Prepare()
	require.NoError(t, err)
	defer box.Cleanup()
	p := box.plan
	p.Code = "0123456789abcdef"
	other, err := encodePlan(p)
	require.NoError(t, err)
	marker := filepath.Join(openDir(t), "ran")
	name, args, env, err := box.Command("/bin/sh", []string{"-c", "echo > " + marker}, append([]string{"PATH=/usr/bin:/bin"}, testkit.ChildEnv()...))
	require.NoError(t, err)
	for i, e := range env {
		if strings.HasPrefix(e, PlanEnv+"=") {
			env[i] = PlanEnv + "=" + other
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
	cmd.ExtraFiles = box.ExtraFiles()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 126, exit.ExitCode())
	msg := strings.TrimSpace(string(out))
	assert.Equal(t, 0, strings.Count(msg, "\n"), "one line: %q", msg)
	assert.Contains(t, msg, `built from other sandbox code ("0123456789abcdef"`)
	assert.NoFileExists(t, marker, "nothing was started")
}

// TestTheDigestCoversTheCode: a file of the package left out of the digest could
// change the helper unseen.
func TestTheDigestCoversTheCode(t *testing.T) {
	all, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var code []string
	for _, f := range all {
		if !strings.HasSuffix(f, "_test.go") {
			code = append(code, f)
		}
	}
	embedded, err := fs.Glob(source, "*")
	require.NoError(t, err)
	assert.Equal(t, code, embedded)
}

// BenchmarkLayers is the trial box a run prepares to list its layers (Config.Layers):
// a bot's scratch directory, tmpfs, user and cgroups, made and removed.
func BenchmarkLayers(b *testing.B) {
	exe, _ := os.Executable()
	Detect()
	for range b.N {
		_, err := Config{Level: Auto, Helper: []string{exe, HelperArg}}.Layers()
		require.NoError(b, err)
	}
}
