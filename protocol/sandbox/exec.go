package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

const rlimitNPROC = 6 // RLIMIT_NPROC on Linux

// selfHelper is set once RunHelper has run and returned: this binary is a helper.
var selfHelper atomic.Bool

// defaultHelper is this binary as the helper, when it is one.
func defaultHelper() []string {
	if !selfHelper.Load() {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	return []string{exe, HelperArg}
}

func encodePlan(p plan) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// HelperArg is the argument that makes a binary act as the helper (see RunHelper).
const HelperArg = "sandbox-exec"

// RunHelper runs the helper when this process was started as one (args[1] is
// HelperArg and the plan is in the environment) and never returns then; otherwise it
// returns at once. A test binary that plays its own bots calls it first in TestMain.
//
// Having been called, it also makes this binary the helper of every Config that names
// none: a binary that calls RunHelper first thing can serve as its own helper.
func RunHelper(args []string) {
	if len(args) < 2 || args[1] != HelperArg || os.Getenv(PlanEnv) == "" {
		selfHelper.Store(true)
		return
	}
	rest := args[2:]
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	err := Exec(rest)
	fmt.Fprintln(os.Stderr, "arena sandbox-exec:", err)
	os.Exit(126)
}

// Exec is the helper: it applies the plan in its environment to itself (cgroups,
// rlimits, capabilities, no_new_privs, Landlock) and then execs argv, which inherits
// every limit. It returns only on failure, and then nothing was started.
func Exec(argv []string) error {
	if len(argv) == 0 {
		return errors.New("no bot to run")
	}
	p, err := readPlan()
	if err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	env := make([]string, 0, len(os.Environ()))
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, PlanEnv+"=") {
			env = append(env, e)
		}
	}
	// Capabilities, credentials, no_new_privs, Landlock and seccomp belong to the
	// thread; the exec below (or, as a subreaper, the fork of the bot) happens on this
	// same thread, and the bot keeps what it had.
	runtime.LockOSThread()
	if p.NetNS != 0 {
		// The bot's network namespace, made ahead by the arena: this thread, which
		// starts the bot, enters it; the bot does not inherit the descriptor.
		if err := unix.Setns(p.NetNS, unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("entering the bot's network namespace: %w", err)
		}
		unix.Close(p.NetNS)
	}
	arena := os.Getppid()
	if p.Subreaper {
		// Before the plan: the bot's leftovers must be re-parented here from its start.
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return err
		}
	}
	prog, progFD := path, -1
	if p.UID != 0 || p.Own != "" {
		// Opened while the helper may still read it: the bot's own user may not, and
		// its mount namespace may hide the program's directory (the ladder's store).
		if prog, progFD, err = openProgram(path); err != nil {
			return err
		}
	}
	if keepProgram == nil {
		// A sealed copy lies on the kernel's own mount, which Landlock lets the bot
		// run unasked; the program itself needs a rule.
		p.Program = prog
		if progFD >= 0 {
			// The bot may read it: its mount view shows it at its own path (showProgram).
			shownProgram = openPath{path, progFD}
		}
	}
	if err := p.apply(); err != nil {
		return err
	}
	if keepProgram == nil && progFD >= 0 {
		prog = ownName(path, progFD)
	}
	if p.Subreaper {
		// A change of user clears the thread's parent-death signal, and this helper
		// must end with the arena (and with it, as the first process of its PID
		// namespace, everything the bot started): set it again, then make sure the arena
		// did not die before. In a PID namespace of its own the parent shows as 0, so an
		// arena killed in the moment between the two is not seen here; the next arena
		// kills what is left in a dead arena's cgroups.
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
			return fmt.Errorf("parent-death signal: %w", err)
		}
		if os.Getppid() != arena {
			os.Exit(1)
		}
		return missingInterpreter(prog, reap(prog, argv, env))
	}
	return missingInterpreter(prog, syscall.Exec(prog, argv, env))
}

// readPlan reads the plan the arena put in the helper's environment, and refuses one
// of other sandbox code than the helper's.
func readPlan() (plan, error) {
	raw := os.Getenv(PlanEnv)
	if raw == "" {
		return plan{}, errors.New(PlanEnv + " is not set: the helper runs only as the arena starts it")
	}
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return plan{}, fmt.Errorf("bad plan: %w", err)
	}
	var p plan
	if err := json.Unmarshal(b, &p); err != nil {
		return plan{}, fmt.Errorf("bad plan: %w", err)
	}
	if p.Code != codeDigest() {
		return plan{}, fmt.Errorf("the arena that started this helper was built from other sandbox code (%q, the helper's %s): build the arena and its programs together (go build -o bin/ ./cmd/...)", p.Code, codeDigest())
	}
	return p, nil
}

// missingInterpreter explains an exec of a script the bot may read that failed: the
// interpreter its #! line names is out of the bot's view (a virtual environment
// outside the bot's folder), which the kernel reports as the script missing (hidden at
// auto) or not allowed (Landlock at basic).
func missingInterpreter(prog string, err error) error {
	if !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EACCES) {
		return err
	}
	f, ferr := os.Open(prog)
	if ferr != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(fields) == 0 {
		return err
	}
	return fmt.Errorf("%w: the bot may not run the interpreter on its #! line, %s (give bots its folder to read: --bot-read)", err, fields[0])
}

func (p *plan) apply() error {
	// Joining cgroups writes to the cgroup filesystem, so it goes before capabilities
	// and Landlock take that right away. "0" is the writer, in whatever PID namespace
	// it runs: on cgroup v1 this thread alone (locked to it, it starts the bot), on v2
	// this process.
	for _, procs := range p.Cgroups {
		if err := os.WriteFile(procs, []byte("0"), 0); err != nil {
			return fmt.Errorf("joining cgroup %s: %w", procs, err)
		}
	}
	if p.Own != "" {
		if err := p.isolate(); err != nil {
			return fmt.Errorf("the bot's mount namespace: %w", err)
		}
	}
	for _, r := range p.Rlimits {
		lim := syscall.Rlimit{Cur: r.Cur, Max: r.Max}
		if err := syscall.Setrlimit(r.Resource, &lim); err != nil {
			return fmt.Errorf("rlimit %d: %w", r.Resource, err)
		}
	}
	if p.DropCaps || p.UID != 0 {
		if err := dropBoundingSet(); err != nil {
			return fmt.Errorf("dropping capabilities: %w", err)
		}
	}
	if p.UID != 0 {
		if err := becomeUser(p.UID); err != nil {
			return fmt.Errorf("becoming user %d: %w", p.UID, err)
		}
	}
	if p.DropCaps {
		if err := clearCapabilities(); err != nil {
			return fmt.Errorf("dropping capabilities: %w", err)
		}
	}
	if p.NoNewPrivs || p.LandlockABI > 0 || p.Seccomp {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("no_new_privs: %w", err)
		}
	}
	if p.LandlockABI > 0 {
		if err := landlock(p.LandlockABI, p.Writable, p.readable); err != nil {
			return fmt.Errorf("landlock: %w", err)
		}
	}
	if p.Seccomp {
		if err := onlyUnixSockets(); err != nil {
			return fmt.Errorf("seccomp: %w", err)
		}
	}
	return nil
}

// becomeUser sets this thread's user and group ids to uid, with no supplementary
// groups. Raw calls on purpose: only this thread, which execs the bot next, changes
// (the Go wrappers change every thread of the helper).
func becomeUser(uid int) error {
	if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); e != 0 {
		return fmt.Errorf("setgroups: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, uintptr(uid), uintptr(uid), uintptr(uid)); e != 0 {
		return fmt.Errorf("setresgid: %w", e)
	}
	if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, uintptr(uid), uintptr(uid), uintptr(uid)); e != 0 {
		return fmt.Errorf("setresuid: %w", e)
	}
	return nil
}

// keepProgram holds the program's memory file open until the exec.
var keepProgram *os.File

// shownProgram is the program the bot may read, open, which its mount view shows at
// its own path even where a cover hides its folder (showProgram).
var shownProgram openPath

// openProgram opens the bot's program while the helper may still reach it (the bot's
// mount namespace may hide its directory, the ladder's store) and returns a path that
// execs it, and the open file. A program its own user could not read and run is
// copied into a sealed memory file: the bot runs it without being able to open (or
// change) the file it came from.
func openProgram(path string) (string, int, error) {
	src, err := os.Open(path)
	if err != nil {
		return "", -1, err
	}
	defer src.Close()
	if st, err := src.Stat(); err == nil && st.Mode()&0o005 == 0o005 {
		// Anyone may read and run it: the open file is enough, and a copy of a large
		// program costs a start several milliseconds. Not close-on-exec: a script's
		// interpreter opens its program by this path.
		fd, err := unix.Open(path, unix.O_PATH, 0)
		if err != nil {
			return "", -1, err
		}
		return fmt.Sprintf("/proc/self/fd/%d", fd), fd, nil
	}
	// Not close-on-exec: a script's interpreter opens its program by this path.
	fd, err := unix.MemfdCreate(filepath.Base(path), unix.MFD_ALLOW_SEALING)
	if err != nil {
		return "", -1, fmt.Errorf("memfd: %w", err)
	}
	keepProgram = os.NewFile(uintptr(fd), path)
	if _, err := io.Copy(keepProgram, src); err != nil {
		return "", -1, fmt.Errorf("copying %s: %w", path, err)
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, seals); err != nil {
		return "", -1, fmt.Errorf("sealing: %w", err)
	}
	return fmt.Sprintf("/proc/self/fd/%d", fd), fd, nil
}

// ownName is the path to exec the open program (fd) by, once the bot's layers apply:
// its own path when the bot reaches there, as its own user and in its own view, the
// very file the helper opened; else the open file's /proc/self/fd path. A script's
// interpreter is given this path: Python names it in tracebacks and sets sys.path
// from it, so an author's file reads as its own name, not as /proc/self/fd/8.
// Nothing is checked less: the exec still passes the kernel's and Landlock's checks
// as the bot, and a file swapped in between could only be one the bot may run anyway.
func ownName(path string, fd int) string {
	var want, got unix.Stat_t
	// A relative path would name another file once the bot's view changes directory.
	if !filepath.IsAbs(path) || unix.Fstat(fd, &want) != nil || unix.Stat(path, &got) != nil || got.Dev != want.Dev || got.Ino != want.Ino {
		return fmt.Sprintf("/proc/self/fd/%d", fd)
	}
	// The interpreter opens its program by its own path now: the open file need not
	// follow it into the bot.
	unix.Close(fd)
	return path
}

// dropBoundingSet empties the bounding set, so that exec, even as uid 0, grants
// nothing. It needs CAP_SETPCAP, so it comes before the ids change.
func dropBoundingSet() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return err
		}
	}
	return nil
}

// clearCapabilities empties the ambient and inheritable sets and then the thread's own.
func clearCapabilities() error {
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// rulesetAttr and pathBeneathAttr are the kernel's structs as of ABI 6 (x/sys's grow
// with newer kernels; the size passed tells the kernel which fields there are).
type rulesetAttr struct {
	handledFS, handledNet, scoped uint64
}

type pathBeneathAttr struct {
	allowed  uint64
	parentFD int32
}

// landlock restricts this thread (and what it execs) to reading and executing only
// what readable lists (see plan.readable), writing only below writable (and to
// /dev/null), no TCP at all (ABI 4), and no signals or abstract unix sockets outside
// its own domain (ABI 6).
func landlock(abi int, writable []string, readable func(read uint64) []allowed) error {
	ruleset, err := newRuleset(abi, writable, readable)
	if err != nil {
		return err
	}
	defer syscall.Close(ruleset)
	if _, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("restrict self: %w", errno)
	}
	return nil
}

// newRuleset makes landlock's ruleset, every rule added; the caller closes it.
func newRuleset(abi int, writable []string, readable func(read uint64) []allowed) (int, error) {
	fs := uint64(1<<13 - 1) // ABI 1: execute ... make_sym
	if abi >= 2 {
		fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	attr := rulesetAttr{handledFS: fs}
	size := unsafe.Sizeof(uint64(0)) // ABI 1-3 know only access_fs
	if abi >= 4 {
		attr.handledNet = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = 2 * unsafe.Sizeof(uint64(0))
	}
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Sizeof(attr)
	}
	fd, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return -1, fmt.Errorf("create ruleset: %w", errno)
	}
	ruleset := int(fd)

	read := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR)
	fileRights := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE)
	if abi >= 3 {
		fileRights |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		read |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
		fileRights |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	rules := append(readable(read), allowed{path: "/dev/null", access: fileRights &^ unix.LANDLOCK_ACCESS_FS_EXECUTE})
	for _, w := range writable {
		rules = append(rules, allowed{path: w, access: fs})
	}
	for _, r := range rules {
		if err := addRule(ruleset, r); err != nil {
			syscall.Close(ruleset)
			return -1, err
		}
	}
	return ruleset, nil
}

// fileAccess are the rights Landlock takes on a file (the rest are a folder's).
const fileAccess = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

// addRule adds one rule to the ruleset, narrowed to a file's rights when the path is
// a file. A path that is not there, or is a symbolic link not followed, needs none.
func addRule(ruleset int, r allowed) error {
	f, err := r.open()
	if err != nil {
		return fmt.Errorf("open %s: %w", r.path, err)
	}
	if f < 0 {
		return nil
	}
	defer syscall.Close(f)
	var st unix.Stat_t
	if err := unix.Fstat(f, &st); err != nil {
		return fmt.Errorf("stat %s: %w", r.path, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return nil
	case unix.S_IFDIR:
	default:
		r.access &= fileAccess
	}
	rule := pathBeneathAttr{allowed: r.access, parentFD: int32(f)}
	_, _, errno := syscall.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("rule for %s: %w", r.path, errno)
	}
	return nil
}
