// Package sandbox confines bot processes: the arena runs programs written by strangers.
// It works in layers, each detected on the machine at start and reported, so that a run
// records what protected it:
//
//   - always (the host does these itself): the bot's own process group, killed as a
//     whole; a parent-death signal; a minimal environment; stdin from /dev/null; capped
//     output; a wall-clock cap per match (the arena's);
//   - basic (no privilege needed, but root for the first): a user id of its own for
//     each bot process; a helper (the arena-sandbox program, or `arena sandbox-exec`;
//     code.go says how they agree on the code) that confines the thread that starts
//     the bot (exec'd in its place, or, as a child subreaper, forked and waited
//     for), so that the bot inherits every limit: rlimits,
//     no_new_privs, dropped capabilities, Landlock (reading only a list: the system's
//     folders, the entries of /etc the C library and interpreters need, the bot's
//     program and its folder, the scratch directory, which alone is writable
//     (world.go); no TCP, no signals or abstract sockets outside its domain), a
//     seccomp filter that allows unix stream sockets only, no connect and no call of
//     another architecture, each as far as the kernel has it; a disk quota on the
//     scratch directory (quota.go);
//   - strict (root, or user namespaces for the namespaces): network, PID and mount
//     namespaces of its own (the tree read-only but the scratch directory; the paths
//     of Config.Hide, the host's /home, /root, /tmp, /run and /var and the other
//     bots' directories covered; a fresh /proc), memory and process-count limits
//     through cgroups (v1 or v2).
//
// The host side is Prepare, which makes a Box for one bot process; the bot side is Exec,
// run by the helper command.
//
// Landlock is called directly (one function): github.com/landlock-lsm/go-landlock
// would do it in fewer lines, but it restricts every thread through libcap's psx,
// which wraps pthread_create when cgo is on, and the helper needs none of that: it
// restricts the one thread that starts the bot. The seccomp filter is built with
// github.com/elastic/go-seccomp-bpf (package seccomppolicy), ahead of time on amd64.
package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Level is how much confinement is asked for.
type Level uint8

const (
	// Auto is the strongest level the machine supports, with every missing layer
	// reported.
	Auto Level = iota
	// None keeps only the layers the host always applies.
	None
	// Basic adds the helper's self-imposed limits, which need no privilege.
	Basic
	// Strict adds namespaces and cgroups; asking for it on a machine that lacks one of
	// them is an error.
	Strict
)

var levelNames = []string{"auto", "none", "basic", "strict"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel reads a level's name.
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return Auto, fmt.Errorf("unknown sandbox level %q (one of %s)", s, strings.Join(levelNames, ", "))
}

// The layers, by the names used in logs, reports and replays.
const (
	ProcessGroup   = "process-group"
	ParentDeath    = "parent-death-signal"
	MinimalEnv     = "minimal-env"
	StdinNull      = "stdin-null"
	OutputCap      = "output-cap"
	MatchWallClock = "match-wall-clock"

	Rlimits         = "rlimits"
	RlimitProcs     = "rlimit-nproc"
	OwnUID          = "own-uid"
	NoNewPrivs      = "no-new-privs"
	DropCaps        = "drop-capabilities"
	LandlockFS      = "landlock-fs"
	LandlockNet     = "landlock-net"
	LandlockScope   = "landlock-scope"
	SeccompSockets  = "seccomp-sockets"
	DiskQuota       = "disk-quota"
	DiskWatch       = "disk-watch"
	Subreaper       = "child-subreaper"
	NetNamespace    = "net-namespace"
	MountNamespace  = "mount-namespace"
	ReadOnlyRoot    = "read-only-root"
	PrivateProc     = "private-proc"
	PIDNamespace    = "pid-namespace"
	CgroupMemory    = "cgroup-memory"
	CgroupProcesses = "cgroup-pids"
)

// always are the host's own layers, active at every level.
var always = []string{ProcessGroup, ParentDeath, MinimalEnv, StdinNull, OutputCap, MatchWallClock}

var basicLayers = []string{OwnUID, Rlimits, RlimitProcs, NoNewPrivs, DropCaps, LandlockFS, LandlockNet, LandlockScope,
	SeccompSockets, Subreaper, DiskQuota, DiskWatch}

var strictLayers = []string{NetNamespace, PIDNamespace, MountNamespace, ReadOnlyRoot, PrivateProc, CgroupMemory, CgroupProcesses}

// Status is one layer for one bot process: active, or missing and why.
type Status struct {
	Layer  string `json:"layer"`
	Active bool   `json:"active"`
	Reason string `json:"reason,omitempty"`
}

// Limits bound a bot process's resources. A zero field takes its default.
type Limits struct {
	// CPUTime is the process's whole CPU time (RLIMIT_CPU), over every match it plays.
	CPUTime time.Duration
	// Memory is the cgroup's memory limit; without a memory cgroup it becomes the
	// address-space rlimit (Memory plus 2 GiB: a Go runtime reserves 1.3 GiB of address
	// space at start that it never touches).
	Memory int64
	// Processes bounds processes and threads (the pids cgroup; RLIMIT_NPROC above the
	// user's current count where that works: not for root).
	Processes int
	// Files bounds open files (RLIMIT_NOFILE); FileSize the size of a file written
	// (RLIMIT_FSIZE).
	Files    int
	FileSize int64
	// Disk bounds what the scratch directory holds, every file together (see
	// quota.go).
	Disk int64
}

// DefaultLimits are generous for a card-game bot and small for a machine. The disk
// quota is the size of one file: a bot needs a socket and perhaps a log, and its
// files are memory (a tmpfs) where the arena can mount one.
func DefaultLimits() Limits {
	return Limits{CPUTime: time.Hour, Memory: 1 << 30, Processes: 128, Files: 256, FileSize: 64 << 20, Disk: 64 << 20}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.CPUTime <= 0 {
		l.CPUTime = d.CPUTime
	}
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.Files <= 0 {
		l.Files = d.Files
	}
	if l.FileSize <= 0 {
		l.FileSize = d.FileSize
	}
	if l.Disk <= 0 {
		l.Disk = d.Disk
	}
	return l
}

// Config is the sandbox of a run.
type Config struct {
	Level  Level
	Limits Limits
	// Helper is the command that applies the bot-side layers and then execs the bot:
	// it is run as Helper... -- BOT ARGS... with the plan in its environment, and must
	// call Exec (`arena sandbox-exec` does). Empty: this binary, if it called RunHelper
	// at start; else only the host's own layers and the namespaces apply.
	Helper []string
	// ScratchRoot holds each bot process's scratch directory (default: the system's
	// temporary directory).
	ScratchRoot string
	// Hide lists paths a bot must not see at all: the ladder's data directory (its
	// database, stored bots and replays), the run's replays. In the bot's mount
	// namespace a directory is covered by an empty one and a file by /dev/null.
	Hide []string
	// Read lists folders (or files) every bot may read and run beside the system's:
	// a language's runtime installed outside /usr, say. None may hold a path of Hide
	// or the scratch root. At auto one below a covered host folder is bound back.
	Read []string
	// UIDs is the range of user ids bots run as when the arena is root: each bot
	// process gets an id of its own (default: ids from 2^30, 65536 of them).
	UIDs UIDRange
}

// Box is the sandbox of one bot process: made by Prepare before the process starts,
// cleaned up after it ends.
type Box struct {
	// Dir is the bot's scratch directory: its working directory, TMPDIR and socket
	// directory, and the only place it may write.
	Dir    string
	layers []Status
	plan   plan
	clone  uintptr
	helper []string
	// ahead: the helper may enter a network namespace made ahead (netns.go) in place
	// of the clone making one; netns is the one taken, passed to the helper as its
	// file descriptor 3.
	ahead bool
	netns *os.File
	// mu guards cg: the host kills and cleans up from more than one goroutine.
	mu  sync.Mutex
	cg  []*cgroupDir
	uid int // the bot's own user id (0: none)
	// mounted: a tmpfs is the scratch directory; watchQuota, when not 0, is the
	// quota WatchDisk watches, and unwatch ends the watch (quota.go).
	mounted    bool
	watchQuota int64
	unwatch    chan struct{}
	// hide and root are what no program tree may hold (programTree); read is
	// Config.Read, made absolute.
	hide, read []string
	root       string
}

// plan is what the helper applies to itself, handed over in its environment as JSON.
type plan struct {
	Rlimits     []rlimit `json:"rlimits,omitempty"`
	NoNewPrivs  bool     `json:"no_new_privs,omitempty"`
	DropCaps    bool     `json:"drop_caps,omitempty"`
	LandlockABI int      `json:"landlock_abi,omitempty"`
	Writable    []string `json:"writable,omitempty"`
	// System is what every bot may read (systemReadable); Program the file the
	// helper execs; Read Config.Read and the folder beside the program (programTree).
	System  []string `json:"system,omitempty"`
	Program string   `json:"program,omitempty"`
	Read    []string `json:"read,omitempty"`
	Cgroups []string `json:"cgroups,omitempty"` // files to write "0" to, to join (cgroupDir.joinFile)
	// HideRoot and Hide are covered by an empty tmpfs (a file: by /dev/null) but for
	// Own, in a mount namespace of the bot's own, so that no bot sees another's scratch
	// directory nor the arena's data.
	HideRoot string   `json:"hide_root,omitempty"`
	Hide     []string `json:"hide,omitempty"`
	Own      string   `json:"own,omitempty"`
	// ReadOnly remounts every mount read-only but Own; Proc mounts a fresh /proc of the
	// bot's PID namespace.
	ReadOnly bool `json:"read_only,omitempty"`
	Proc     bool `json:"proc,omitempty"`
	// UID, when not 0, is the user (and group) id the bot runs as, with no
	// supplementary groups.
	UID int `json:"uid,omitempty"`
	// Seccomp allows only unix-domain sockets; Subreaper keeps the helper as the bot's
	// parent and child subreaper, killing whatever the bot leaves behind.
	Seccomp   bool `json:"seccomp,omitempty"`
	Subreaper bool `json:"subreaper,omitempty"`
	// NetNS, when not 0, is the file descriptor of the network namespace made ahead
	// for the bot, which the helper enters (and closes) first.
	NetNS int `json:"netns,omitempty"`
	// Code is the digest of the sandbox code the arena was built from (codeDigest):
	// the helper applies only a plan of its own code.
	Code string `json:"code"`
}

type rlimit struct {
	Resource int    `json:"resource"`
	Cur      uint64 `json:"cur"`
	Max      uint64 `json:"max"`
}

// PlanEnv carries the helper's plan.
const PlanEnv = "ARENA_SANDBOX_PLAN"

// Prepare makes the sandbox of one bot process: its scratch directory, its cgroups,
// and the plan of every layer the level asks for and the machine has. At Strict it
// fails when a layer is missing; at Auto it reports it. The caller starts the process
// with Command and SysProcAttr, calls WatchDisk, then calls Cleanup once the process has
// ended.
func (c Config) Prepare() (*Box, error) {
	// The level none wants no layer that the probe decides: it is not run (its forks
	// and cgroups cost a run's start 2 ms).
	probe := &Probe{}
	if c.Level != None {
		probe = Detect()
	}
	root, dir, err := scratch(c.ScratchRoot)
	if err != nil {
		return nil, err
	}
	b := &Box{Dir: dir, plan: plan{Code: codeDigest()}, root: root}
	if err := b.prepare(c, probe); err != nil {
		b.Cleanup()
		return nil, err
	}
	return b, nil
}

// scratch makes a bot's scratch directory under root (default: one per user in the
// temporary directory).
func scratch(root string) (string, string, error) {
	if root == "" {
		// One directory holds every bot's scratch directory, so that a mount namespace
		// can hide the others' from each bot.
		root = filepath.Join(os.TempDir(), fmt.Sprintf("arena-bots-%d", os.Getuid()))
	}
	// Others may pass through the root but not list it: a bot running as a user of
	// its own reaches its own directory, and no other.
	if err := os.MkdirAll(root, 0o711); err != nil {
		return "", "", fmt.Errorf("sandbox: scratch root: %w", err)
	}
	if err := os.Chmod(root, 0o711); err != nil {
		return "", "", fmt.Errorf("sandbox: scratch root: %w", err)
	}
	staleOnce.Do(func() { cleanStaleScratch(root) })
	dir, err := os.MkdirTemp(root, fmt.Sprintf("arena-bot-%d-", os.Getpid()))
	if err != nil {
		return "", "", fmt.Errorf("sandbox: scratch directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		os.Remove(dir)
		return "", "", err
	}
	return root, real, nil
}

// layerSet is the layers of a box being prepared: those the level asks for, each
// active or missing (with the reason) as the machine allows.
type layerSet struct {
	b       *Box
	level   Level
	helper  bool // a helper command applies the bot-side layers
	probe   *Probe
	lim     Limits
	missing []string
}

// noHelper is the reason a bot-side layer is missing without a helper command.
const noHelper = "no helper command to apply it"

func (s *layerSet) want(l string) bool {
	switch s.level {
	case None:
		return false
	case Basic:
		return contains(basicLayers, l)
	}
	return true
}

// add records layer as active when ok, else as missing for reason, if the level
// wants it; it reports whether the layer is to be applied.
func (s *layerSet) add(layer string, ok bool, reason string) bool {
	if !s.want(layer) {
		return false
	}
	if !ok {
		s.b.layers = append(s.b.layers, Status{Layer: layer, Reason: reason})
		s.missing = append(s.missing, layer+" ("+reason+")")
		return false
	}
	s.b.layers = append(s.b.layers, Status{Layer: layer, Active: true})
	return true
}

// prepare plans b's layers for c: the bot-side ones its helper applies, the
// host-side ones of the strict level, the cgroups.
func (b *Box) prepare(c Config, probe *Probe) error {
	if err := b.readAndHide(c); err != nil {
		return err
	}
	for _, l := range always {
		b.layers = append(b.layers, Status{Layer: l, Active: true})
	}
	if len(c.Helper) == 0 {
		c.Helper = defaultHelper()
	}
	s := &layerSet{b: b, level: c.Level, helper: len(c.Helper) > 0, probe: probe, lim: c.Limits.withDefaults()}
	if c.Level != None {
		b.limitDisk(s.lim.Disk, s.add) // before the scratch directory is handed to the bot's user
	}
	if err := s.identity(c.UIDs); err != nil {
		return err
	}
	s.confinement()
	if err := s.namespaces(); err != nil {
		return err
	}
	if err := s.cgroups(); err != nil {
		return err
	}
	return s.finish(c.Helper)
}

// identity plans who the bot is and what it may hold: a user of its own, resource
// limits, no new privileges, no capabilities.
func (s *layerSet) identity(uids UIDRange) error {
	b, probe, lim, helper := s.b, s.probe, s.lim, s.helper
	uidOK, uidReason := helper && probe.root, firstOf(probe.uidReason, noHelper)
	if s.add(OwnUID, uidOK, uidReason) {
		if err := enterable(b.root); err != nil {
			return err
		}
		if err := b.takeUID(uids); err != nil {
			return err
		}
	}
	if s.add(Rlimits, helper, noHelper) {
		cpu := uint64(lim.CPUTime.Seconds() + 0.5)
		b.plan.Rlimits = append(b.plan.Rlimits,
			rlimit{Resource: syscall.RLIMIT_CPU, Cur: cpu, Max: cpu + 2},
			rlimit{Resource: syscall.RLIMIT_NOFILE, Cur: uint64(lim.Files), Max: uint64(lim.Files)},
			rlimit{Resource: syscall.RLIMIT_FSIZE, Cur: uint64(lim.FileSize), Max: uint64(lim.FileSize)},
			rlimit{Resource: syscall.RLIMIT_CORE})
	}
	// A user of its own starts with no process: the limit is the bot's alone.
	nproc, nprocReason := uint64(lim.Processes), ""
	if b.uid == 0 && s.want(RlimitProcs) {
		// Counting this user's processes reads every process's status.
		nproc, nprocReason = probe.nprocLimit(lim.Processes)
	}
	if s.add(RlimitProcs, helper && nprocReason == "", firstOf(nprocReason, noHelper)) {
		b.plan.Rlimits = append(b.plan.Rlimits, rlimit{Resource: rlimitNPROC, Cur: nproc, Max: nproc})
	}
	if s.add(NoNewPrivs, helper, noHelper) {
		b.plan.NoNewPrivs = true
	}
	// In a user namespace of its own the bot would hold every capability there.
	userNS := probe.userNS && probe.NamespaceReason == "" && s.want(NetNamespace)
	hasCaps := probe.HasCaps || userNS
	capsReason := noHelper
	if !hasCaps {
		capsReason = "the arena holds no capabilities to drop"
	}
	if s.add(DropCaps, helper && hasCaps, capsReason) {
		b.plan.DropCaps = true
	}
	return nil
}

// confinement plans what the bot may reach: Landlock's files, network and scopes,
// seccomp's sockets, and its own orphans reaped.
func (s *layerSet) confinement() {
	b, probe, helper := s.b, s.probe, s.helper
	llOK, llReason := helper && probe.LandlockABI >= 1, firstOf(probe.LandlockReason, noHelper)
	if s.add(LandlockFS, llOK, llReason) {
		b.plan.LandlockABI = probe.LandlockABI
		b.plan.Writable, b.plan.System = []string{b.Dir}, systemReadable()
	}
	netReason, scopeReason := llReason, llReason
	if llOK {
		netReason = fmt.Sprintf("Landlock ABI %d has no network rules (4 does)", probe.LandlockABI)
		scopeReason = fmt.Sprintf("Landlock ABI %d has no scopes (6 does)", probe.LandlockABI)
	}
	s.add(LandlockNet, llOK && probe.LandlockABI >= 4, netReason)
	s.add(LandlockScope, llOK && probe.LandlockABI >= 6, scopeReason)
	if s.add(SeccompSockets, helper && probe.SeccompReason == "", firstOf(probe.SeccompReason, noHelper)) {
		b.plan.Seccomp = true
	}
	if s.add(Subreaper, helper, noHelper) {
		b.plan.Subreaper = true
	}
}

// namespaces plans the host-side layers of the strict level: the bot's own network,
// processes and mounts, a read-only root and its own /proc.
func (s *layerSet) namespaces() error {
	b, probe, helper := s.b, s.probe, s.helper
	if s.add(NetNamespace, probe.NamespaceReason == "", probe.NamespaceReason) {
		b.clone |= syscall.CLONE_NEWNET
		b.ahead = helper && !probe.userNS
	}
	if s.add(PIDNamespace, probe.NamespaceReason == "", probe.NamespaceReason) {
		b.clone |= syscall.CLONE_NEWPID
	}
	// Bots run under one user: without this, one could find another's socket in the
	// shared scratch root and call it (its controller's Shutdown, say).
	if s.add(MountNamespace, helper && probe.NamespaceReason == "", firstOf(probe.NamespaceReason, noHelper)) {
		b.clone |= syscall.CLONE_NEWNS
		b.plan.HideRoot, b.plan.Own = b.root, b.Dir
		var err error
		if b.plan.Hide, err = hidden(slices.Concat(b.hide, coveredRoots)); err != nil {
			return err
		}
	}
	mountNS := b.clone&syscall.CLONE_NEWNS != 0
	if s.add(ReadOnlyRoot, mountNS, firstOf(probe.NamespaceReason, noHelper)) {
		b.plan.ReadOnly = true
	}
	if s.add(PrivateProc, mountNS && b.clone&syscall.CLONE_NEWPID != 0, firstOf(probe.NamespaceReason, noHelper)) {
		b.plan.Proc = true
	}
	if b.clone != 0 && probe.userNS {
		b.clone |= syscall.CLONE_NEWUSER
	}
	return nil
}

// cgroups makes the bot's memory and pids cgroups; without the memory one, an
// address-space limit 2 GiB above the memory limit stands in.
func (s *layerSet) cgroups() error {
	b, probe, lim, helper := s.b, s.probe, s.lim, s.helper
	memOK, memReason := helper && probe.cgroupMem != nil, firstOf(probe.CgroupMemoryReason, noHelper)
	pidsOK, pidsReason := helper && probe.cgroupPids != nil, firstOf(probe.CgroupPidsReason, noHelper)
	memActive := s.add(CgroupMemory, memOK, memReason)
	if memActive {
		cg, err := probe.cgroupMem.create("memory", lim)
		if err != nil {
			return err
		}
		b.cg = append(b.cg, cg)
		b.plan.Cgroups = append(b.plan.Cgroups, cg.joinFile())
	}
	if !memActive && b.plan.Rlimits != nil {
		as := uint64(lim.Memory + 2<<30)
		b.plan.Rlimits = append(b.plan.Rlimits, rlimit{Resource: syscall.RLIMIT_AS, Cur: as, Max: as})
	}
	if !s.add(CgroupProcesses, pidsOK, pidsReason) {
		return nil
	}
	if len(b.cg) > 0 && b.cg[0].version == 2 && probe.cgroupPids.version == 2 {
		// v2: one directory carries both controllers.
		return b.cg[0].setPids(lim)
	}
	cg, err := probe.cgroupPids.create("pids", lim)
	if err != nil {
		return err
	}
	b.cg = append(b.cg, cg)
	b.plan.Cgroups = append(b.plan.Cgroups, cg.joinFile())
	return nil
}

// finish judges what is missing (Strict fails on anything) and has the helper run
// the bot when any layer needs it.
func (s *layerSet) finish(helperCmd []string) error {
	b := s.b
	if b.Active(CgroupProcesses) {
		// The pids cgroup bounds processes better than RLIMIT_NPROC ever could.
		s.missing = slices.DeleteFunc(s.missing, func(m string) bool { return strings.HasPrefix(m, RlimitProcs+" ") })
	}
	if b.Active(DiskWatch) {
		// The host stops a bot past the quota that no tmpfs bounds.
		s.missing = slices.DeleteFunc(s.missing, func(m string) bool { return strings.HasPrefix(m, DiskQuota+" ") })
	}
	if s.level == Strict && len(s.missing) > 0 {
		return fmt.Errorf("sandbox: the strict level is not available on this machine: missing %s (use --sandbox auto for the strongest level that works)", strings.Join(s.missing, ", "))
	}
	if s.helper && (b.plan.Rlimits != nil || b.plan.NoNewPrivs || b.plan.LandlockABI > 0 || len(b.plan.Cgroups) > 0 ||
		b.plan.Own != "" || b.plan.UID != 0 || b.plan.Seccomp || b.plan.Subreaper) {
		b.helper = helperCmd
	}
	return nil
}

// Layers lists every layer the level asked for: active, or missing with the reason.
func (b *Box) Layers() []Status { return append([]Status(nil), b.layers...) }

// Active reports whether a layer is active.
func (b *Box) Active(layer string) bool {
	for _, s := range b.layers {
		if s.Layer == layer {
			return s.Active
		}
	}
	return false
}

// Command turns the bot's command into the one to start: through the helper when it
// has work to do. env is the bot's environment; the plan is added for the helper,
// which removes it before the bot sees it.
func (b *Box) Command(path string, args, env []string) (string, []string, []string, error) {
	env = append(env, "TMPDIR="+b.Dir, "PLUGIN_UNIX_SOCKET_DIR="+b.Dir)
	if b.helper == nil {
		return path, args, env, nil
	}
	if b.plan.LandlockABI > 0 || b.plan.Own != "" {
		b.plan.Read = slices.Clip(b.read)
		if tree := programTree(path, b.hide, b.root); tree != "" {
			b.plan.Read = append(b.plan.Read, tree)
		}
	}
	if b.ahead && b.netns == nil {
		// Taken here, once the bot is about to start: a box prepared only for its
		// layers (Config.Layers) uses none up.
		if b.netns = takeNetNS(); b.netns != nil {
			b.plan.NetNS = netnsFD
		}
	}
	p, err := encodePlan(b.plan)
	if err != nil {
		return "", nil, nil, err
	}
	hargs := append(append(append([]string(nil), b.helper[1:]...), "--", path), args...)
	return b.helper[0], hargs, append(env, PlanEnv+"="+p), nil
}

// SysProcAttr is how the process must be started: its own process group, killed when
// the thread that started it ends (see Start), and the namespaces.
func (b *Box) SysProcAttr() *syscall.SysProcAttr {
	clone := b.clone
	if b.netns != nil {
		clone &^= syscall.CLONE_NEWNET // the helper enters the one made ahead
	}
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: clone}
	if b.clone&syscall.CLONE_NEWUSER != 0 {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	return a
}

// ExtraFiles are the files the process must be started with (exec.Cmd.ExtraFiles):
// the network namespace made ahead for the helper to enter, if there is one.
func (b *Box) ExtraFiles() []*os.File {
	if b.netns == nil {
		return nil
	}
	return []*os.File{b.netns}
}

// netnsFD is the descriptor the helper finds the namespace at: the first of
// exec.Cmd.ExtraFiles.
const netnsFD = 3

// Reaps reports whether the helper stays as the bot's parent and child subreaper: the
// host then asks it (SIGTERM) to end the bot and everything the bot left behind.
func (b *Box) Reaps() bool { return b.helper != nil && b.plan.Subreaper }

// UID is the user id the bot runs as, 0 when it keeps the arena's.
func (b *Box) UID() int { return b.uid }

// Kill ends every process left in the box's cgroups: children that left the process
// group (setsid) cannot leave a cgroup.
func (b *Box) Kill() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, cg := range b.cg {
		cg.kill()
	}
}

// Started tells the box that its bot has started (go-plugin's handshake is done): the
// network namespaces of the next bots are made now (netns.go).
func (b *Box) Started() {
	if b.ahead {
		refillNetNS()
	}
}

// Cleanup kills what is left in the cgroups, removes them and the scratch directory.
// It also makes the next bots' network namespaces, as Started does, in case the bot
// never started.
func (b *Box) Cleanup() {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.Started()
	for _, cg := range b.cg {
		cg.kill()
		cg.remove()
	}
	b.cg = nil
	if b.netns != nil {
		b.netns.Close()
		b.netns = nil
	}
	b.unmountDisk()
	if b.Dir != "" {
		_ = os.RemoveAll(b.Dir)
	}
	releaseUID(b.uid)
	b.uid = 0
}

// hidden makes the paths to hide absolute and real (a mount covers the real path).
func hidden(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("sandbox: path to hide: %w", err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		out = append(out, abs)
	}
	// Parents first: once a parent is covered, its children are gone already.
	slices.SortFunc(out, func(a, b string) int { return len(a) - len(b) })
	return slices.Compact(out), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Layers is what Prepare would give a bot process on this machine, found by preparing
// a box and cleaning it up at once. It fails as Prepare does.
func (c Config) Layers() ([]Status, error) {
	b, err := c.Prepare()
	if err != nil {
		return nil, err
	}
	defer b.Cleanup()
	return b.Layers(), nil
}

var staleOnce sync.Once

// cleanStaleScratch removes the scratch directories of arenas that died without
// cleaning up (killed with SIGKILL): their name carries the arena's process id.
func cleanStaleScratch(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "arena-bot-")
		if !ok || !e.IsDir() {
			continue
		}
		pidStr, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			unmountStale(filepath.Join(root, e.Name()))
			_ = os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// enterable checks that a user of the bot's own can pass through every folder above
// the scratch root to reach its directory (a private $TMPDIR would fail every bot's
// start with a bare "permission denied").
func enterable(root string) error {
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("sandbox: scratch root: %w", err)
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("sandbox: bots run as users of their own, and they cannot pass through %s (mode %04o) to their scratch directories in %s: set TMPDIR to a folder every user may enter, such as /tmp",
				dir, fi.Mode().Perm(), root)
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}
