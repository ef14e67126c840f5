package sandbox

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary is its own helper and its own "bot": started with probeEnv set, it
// reports what it may do as JSON on stdout.
const probeEnv = "ARENA_SANDBOX_TEST_PROBE"

func TestMain(m *testing.M) {
	RunHelper(os.Args)
	if os.Getenv(probeEnv) != "" {
		probeSelf()
		os.Exit(0)
	}
	os.Exit(m.Run())
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
	_ = json.NewEncoder(os.Stdout).Encode(f)
}

func testConfig(t *testing.T, level Level) Config {
	exe, err := os.Executable()
	require.NoError(t, err)
	return Config{Level: level, Helper: []string{exe, HelperArg}, Limits: Limits{Files: 77, Memory: 128 << 20, Processes: 32}}
}

// runProbe starts the probe in a box of the level and returns what it found.
func runProbe(t *testing.T, level Level) (*Box, facts) {
	box, err := testConfig(t, level).Prepare()
	require.NoError(t, err)
	t.Cleanup(box.Cleanup)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	outside := t.TempDir()
	exe, _ := os.Executable()
	env := []string{"PATH=/usr/bin:/bin", probeEnv + "=1", "PROBE_ADDR=" + ln.Addr().String(), "PROBE_OUTSIDE=" + outside}
	name, args, env, err := box.Command(exe, nil, env)
	require.NoError(t, err)
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "stderr: %s", stderr.String())
	var f facts
	require.NoError(t, json.Unmarshal(out, &f), string(out))
	return box, f
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
	box, f := runProbe(t, Auto)
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
		assert.Equal(t, 1, f.Pid, "the bot is the first process of its own PID namespace")
	})
	t.Run(MountNamespace, func(t *testing.T) {
		requireLayer(t, box, MountNamespace)
		assert.Equal(t, []string{filepath.Base(box.Dir)}, f.Siblings, "no other bot's directory is in sight")
		_, err = os.Stat(other.Dir)
		require.NoError(t, err, "the host sees every directory")
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
}

func TestTheBasicLevelNeedsNoPrivilege(t *testing.T) {
	box, _ := runProbe(t, Basic)
	for _, s := range box.Layers() {
		assert.NotContains(t, strictLayers, s.Layer, "basic asks for no namespace or cgroup")
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
