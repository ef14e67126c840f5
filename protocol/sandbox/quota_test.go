package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/arena-games/arena/internal/attack"
	"github.com/arena-games/arena/internal/testuser"
)

// fillEnv makes the test binary the disk filler, a bot that writes ARENA_SANDBOX_TEST_FILL
// bytes in many files (fillSelf).
const (
	fillEnv     = "ARENA_SANDBOX_TEST_FILL"
	fillWaitEnv = "ARENA_SANDBOX_TEST_FILL_WAIT"
	// holdEnv makes the test binary an arena that prepares a box in the scratch root
	// it names, says the box's directory and waits to be killed.
	holdEnv = "ARENA_SANDBOX_TEST_HOLD"
)

// filled is what the filler wrote (1 MiB files) and made (empty files).
type filled struct {
	Data  attack.Filled `json:"data"`
	Empty attack.Filled `json:"empty"`
}

// fillSelf writes its target in 1 MiB files into the working directory, then makes
// up to 8192 empty files, and reports on stdout. With fillWaitEnv it writes only the
// files of 1 MiB and then waits to be stopped.
func fillSelf() {
	target, _ := strconv.ParseInt(os.Getenv(fillEnv), 10, 64)
	f := filled{Data: attack.FillDisk(".", target)}
	if os.Getenv(fillWaitEnv) != "" {
		time.Sleep(time.Hour)
	}
	f.Empty = attack.FillInodes(".", 8192)
	_ = json.NewEncoder(os.Stdout).Encode(f)
	os.Exit(0)
}

// quotaBox prepares a box of the level with a disk quota, cleaned up with the test.
func quotaBox(t *testing.T, level Level, quota int64) *Box {
	c := testConfig(t, level)
	c.Limits.Disk = quota
	box, err := c.Prepare()
	require.NoError(t, err)
	t.Cleanup(box.Cleanup)
	return box
}

// startFiller starts the filler in the box, to write target bytes.
func startFiller(t *testing.T, box *Box, target int64, wait bool) (*exec.Cmd, *strings.Builder) {
	exe, err := os.Executable()
	require.NoError(t, err)
	env := []string{"PATH=/usr/bin:/bin", fillEnv + "=" + strconv.FormatInt(target, 10)}
	if wait {
		env = append(env, fillWaitEnv+"=1")
	}
	name, args, env, err := box.Command(exe, nil, env)
	require.NoError(t, err)
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir, cmd.SysProcAttr = env, box.Dir, box.SysProcAttr()
	cmd.ExtraFiles = box.ExtraFiles()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	return cmd, &out
}

// A bot that writes many files, each under the per-file cap, gets ENOSPC at its quota:
// its scratch directory is a tmpfs of the quota's size, not the disk the arena's
// data is on.
func TestTheDiskQuotaHoldsAcrossManyFiles(t *testing.T) {
	const quota = 8 << 20
	for _, level := range []Level{Basic, Auto} {
		t.Run(level.String(), func(t *testing.T) {
			box := quotaBox(t, level, quota)
			requireLayer(t, box, DiskQuota)
			cmd, out := startFiller(t, box, 8*quota, false)
			require.NoError(t, cmd.Wait(), out.String())
			var f filled
			// The report is the first thing the filler writes; under go test -cover
			// its exit then fails to write coverage into the full scratch and says
			// so after it, which is not the report's.
			require.NoError(t, json.NewDecoder(strings.NewReader(out.String())).Decode(&f), out.String())

			assert.Contains(t, f.Data.Err, "no space left on device")
			assert.LessOrEqual(t, f.Data.Bytes, int64(quota))
			assert.Greater(t, f.Data.Bytes, int64(quota/2), "the quota is the bot's to use")
			assert.Contains(t, f.Empty.Err, "no space left on device", "empty files are bounded too")
			assert.LessOrEqual(t, int64(f.Data.Files+f.Empty.Files), diskInodes(quota))
			var st unix.Statfs_t
			require.NoError(t, unix.Statfs(box.Dir, &st))
			assert.Equal(t, int64(unix.TMPFS_MAGIC), int64(st.Type), "the scratch directory is a file system of its own")
			assert.LessOrEqual(t, (st.Blocks-st.Bfree)*uint64(st.Bsize), uint64(quota))

			dir := box.Dir
			box.Cleanup()
			assert.False(t, mounted(t, dir), "Cleanup unmounts the tmpfs")
			assert.NoDirExists(t, dir)
		})
	}
}

// The level none confines nothing (a bot may write anywhere), so it mounts nothing.
func TestTheNoneLevelHasNoDiskQuota(t *testing.T) {
	box, err := testConfig(t, None).Prepare()
	require.NoError(t, err)
	defer box.Cleanup()
	assert.False(t, mounted(t, box.Dir))
}

// A bot's mount namespace starts as a copy of the host's, with every other bot's
// tmpfs in it: hidden, but kept, with its memory, for as long as the bot lives, after
// the other bot has ended. The helper unmounts those copies (once the bot is
// started: the probe waits for it, within poll's limit).
func TestABotsNamespaceKeepsNoOtherBotsQuota(t *testing.T) {
	other := quotaBox(t, Auto, 8<<20)
	requireLayer(t, other, DiskQuota)
	box, f := runProbe(t, Auto, "PROBE_MOUNT_GOES="+other.Dir)
	requireLayer(t, box, MountNamespace)
	assert.Contains(t, f.Mounts, box.Dir, "its own tmpfs, bound back")
	assert.NotContains(t, f.Mounts, other.Dir)
}

// A machine may hold more bots than a bot may open files: the helper holds a
// descriptor for each other bot's tmpfs until the bot starts, so the bot's limit on
// open files must not apply to it before Landlock's rules are made (they open paths).
func TestMoreBotsThanABotMayOpenFilesStillStart(t *testing.T) {
	limit := testConfig(t, Auto).Limits.Files
	for range limit + 8 {
		quotaBox(t, Auto, 1<<20)
	}
	if n := len(mountedUnder(t, os.TempDir())); n <= limit {
		t.Skipf("%d scratch mounts (not root?): nothing to test", n)
	}
	box, f := runProbe(t, Auto)
	requireLayer(t, box, LandlockFS)
	requireLayer(t, box, Rlimits)
	assert.Contains(t, f.Mounts, box.Dir, "the bot started in its own tmpfs")
}

// mountedUnder lists the mount points below dir in this mount namespace.
func mountedUnder(t *testing.T, dir string) []string {
	points, err := mountPoints()
	require.NoError(t, err)
	var out []string
	for _, p := range points {
		if strings.HasPrefix(p, dir+"/") {
			out = append(out, p)
		}
	}
	return out
}

// mounted reports whether dir is a mount point in this mount namespace.
func mounted(t *testing.T, dir string) bool {
	f, err := os.Open("/proc/self/mountinfo")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 4 && unescapeMount(fields[4]) == dir {
			return true
		}
	}
	require.NoError(t, sc.Err())
	return false
}

// holdBox is an arena that prepares a box and is killed before it can clean up.
func holdBox(root string) {
	b, err := Config{Level: Basic, ScratchRoot: root}.Prepare()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(b.Dir)
	time.Sleep(time.Hour)
}

// An arena killed with SIGKILL leaves its bots' tmpfs mounts: the next arena to use
// the scratch root unmounts and removes them, as it removes stale directories.
func TestAKilledArenasQuotaMountIsRemoved(t *testing.T) {
	root := filepath.Join(openDir(t), "bots")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+root)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	dir := strings.TrimSpace(line)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	if !mounted(t, dir) {
		t.Skipf("no tmpfs was mounted (%s): not root?", dir)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	require.NoError(t, os.WriteFile(filepath.Join(dir, "left"), []byte("by a bot"), 0o644))

	cleanStaleScratch(root)
	assert.False(t, mounted(t, dir), "the stale mount is gone")
	assert.NoDirExists(t, dir)
}

// Without root no tmpfs can be mounted: the host measures the scratch directory and
// stops a bot past its quota, with an error that names the quota.
func TestAWatchedQuotaStopsTheBot(t *testing.T) {
	if testuser.Rerun(t, "^TestAWatchedQuotaStopsTheBot$") {
		return
	}
	const quota = 8 << 20
	box := quotaBox(t, Basic, quota)
	requireLayer(t, box, DiskWatch)
	assert.False(t, box.Active(DiskQuota))

	// The filler writes 32 times its quota and then waits: only the watch stops it.
	cmd, out := startFiller(t, box, 32*quota, true)
	stopped := make(chan error, 1)
	box.WatchDisk(func(err error) {
		stopped <- err
		_ = cmd.Process.Kill()
	})
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the filler was killed: %s", out.String())
	ws := exit.Sys().(syscall.WaitStatus)
	assert.True(t, ws.Signaled(), "killed, not ended: %s", out.String())
	why := <-stopped
	var qe *DiskQuotaError
	require.ErrorAs(t, why, &qe)
	assert.Greater(t, qe.Used, int64(quota))
	assert.Contains(t, why.Error(), "past its disk quota of 8 MiB (--bot-disk)")
	t.Logf("stopped at %.1f MiB of a %d MiB quota (the watch looks every %v)", float64(qe.Used)/(1<<20), quota>>20, diskWatchEvery)
}
