package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Probe is what this machine offers, found once per process.
type Probe struct {
	// HasCaps: the arena holds capabilities (a bot started by it would inherit them
	// unless they are dropped).
	HasCaps bool
	// LandlockABI is the kernel's Landlock version, 0 without it.
	LandlockABI    int
	LandlockReason string
	// NamespaceReason is empty when new network and PID namespaces can be made.
	NamespaceReason string
	// SeccompReason is empty when a seccomp filter can be loaded.
	SeccompReason string
	userNS        bool
	// root: bots can run as users of their own (uidReason says why not).
	root      bool
	uidReason string
	// CgroupMemoryReason and CgroupPidsReason are empty when a child cgroup with the
	// controller can be made.
	CgroupMemoryReason string
	CgroupPidsReason   string
	cgroupMem          *cgroupParent
	cgroupPids         *cgroupParent
	euid               int
}

var (
	probeOnce sync.Once
	probe     *Probe
)

// Detect probes the machine (once; later calls return the same answer).
func Detect() *Probe {
	probeOnce.Do(func() { probe = detect() })
	return probe
}

const (
	capSetGID   = 6
	capSetUID   = 7
	capSysAdmin = 21
)

func detect() *Probe {
	p := &Probe{euid: os.Geteuid()}
	// The cgroups are proved (each by making one) while the namespaces are: both wait
	// on the kernel more than they run.
	var cgroups sync.WaitGroup
	cgroups.Go(func() { p.cgroupMem, p.CgroupMemoryReason = findCgroup("memory") })
	cgroups.Go(func() { p.cgroupPids, p.CgroupPidsReason = findCgroup("pids") })
	capEff := readCapEff()
	p.HasCaps = capEff != 0
	admin := capEff&(1<<capSysAdmin) != 0

	abi, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch {
	case errno == syscall.ENOSYS:
		p.LandlockReason = "the kernel has no Landlock (ENOSYS)"
	case errno == syscall.EOPNOTSUPP:
		p.LandlockReason = "Landlock is built in but disabled at boot (lsm=)"
	case errno != 0:
		p.LandlockReason = "Landlock: " + errno.Error()
	default:
		p.LandlockABI = int(abi)
	}

	var nsErr error
	if admin {
		// Making them is the test; the network namespaces made are kept for the first
		// bots (netns.go).
		nsErr = probeNamespaces()
	} else {
		p.userNS = true
		nsErr = tryClone(syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWUSER)
	}
	if err := nsErr; err != nil {
		if admin {
			p.NamespaceReason = "cannot create network and PID namespaces: " + err.Error()
		} else {
			p.NamespaceReason = "not root, and user namespaces are not allowed: " + err.Error()
		}
		p.userNS = false
	}

	p.root = p.euid == 0 && capEff&(1<<capSetUID) != 0 && capEff&(1<<capSetGID) != 0
	if !p.root {
		p.uidReason = "not root: only root may run a bot as a user of its own (the read-only world and Landlock guard the files instead)"
	}
	if _, _, errno := syscall.Syscall(unix.SYS_PRCTL, unix.PR_GET_SECCOMP, 0, 0); errno != 0 {
		p.SeccompReason = "the kernel has no seccomp: " + errno.Error()
	}

	cgroups.Wait()
	return p
}

func readCapEff() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return n
		}
	}
	return 0
}

// tryClone starts `true` in new namespaces, a user namespace among them: the only
// sure test of whether it works (a process with other threads may not unshare one).
func tryClone(flags uintptr) error {
	path := ""
	for _, p := range []string{"/bin/true", "/usr/bin/true"} {
		if _, err := os.Stat(p); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		return fmt.Errorf("no /bin/true to try them with")
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}}
	return cmd.Run()
}

// nprocLimit is RLIMIT_NPROC for a bot: it counts every process of the user, so it is
// the user's current count plus the bot's share; root ignores it.
func (p *Probe) nprocLimit(procs int) (uint64, string) {
	if p.euid == 0 {
		return 0, "root is exempt from RLIMIT_NPROC"
	}
	n := 0
	entries, _ := os.ReadDir("/proc")
	uid := strconv.Itoa(os.Getuid())
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 && f[0] == uid {
					th := 1
					for _, l := range strings.Split(string(b), "\n") {
						if t, ok := strings.CutPrefix(l, "Threads:"); ok {
							th, _ = strconv.Atoi(strings.TrimSpace(t))
						}
					}
					n += th
				}
				break
			}
		}
	}
	return uint64(n + procs), ""
}

// mountinfo lists the cgroup mounts: v1 by controller, and the v2 mount.
func cgroupMounts() (v1 map[string][2]string, v2 [2]string) {
	v1 = map[string][2]string{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options... - fstype source superoptions
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, x := range fields {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 > len(fields) || len(fields) < 5 {
			continue
		}
		root, mnt, fstype := fields[3], fields[4], fields[sep+1]
		switch fstype {
		case "cgroup":
			for _, o := range strings.Split(fields[sep+3], ",") {
				v1[o] = [2]string{root, mnt}
			}
		case "cgroup2":
			if v2[1] == "" || mnt == "/sys/fs/cgroup" {
				v2 = [2]string{root, mnt}
			}
		}
	}
	return
}

// ownCgroups reads /proc/self/cgroup: v1 paths by controller, and the v2 path.
func ownCgroups() (v1 map[string]string, v2 string, has2 bool) {
	v1 = map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2, has2 = parts[2], true
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			v1[c] = parts[2]
		}
	}
	return
}
