package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// isolate builds the bot's view of the files, in its own mount namespace: the paths
// to hide and the shared scratch root covered by empty directories, the bot's own
// scratch directory bound back at its place, every other mount read-only, and a
// fresh /proc that shows only the bot's PID namespace.
func (p *plan) isolate() error {
	// The namespace's mounts must first stop propagating back to the host's.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	fd, err := unix.Open(p.Own, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	others, err := otherQuotas(p.HideRoot, p.Own, p.fileLimit())
	if err != nil {
		return err
	}
	if p.Subreaper {
		otherBotsQuotas = others // unmounted once the bot is started
	} else {
		defer detachQuotas(others) // before the exec: nothing stays to do it
	}
	read, err := p.coveredReads()
	defer func() {
		for _, r := range read {
			unix.Close(r.fd)
		}
	}()
	if err != nil {
		return err
	}
	for _, h := range append(append([]string(nil), p.Hide...), p.HideRoot) {
		if err := cover(h); err != nil {
			return err
		}
	}
	if err := bindBack(fd, p.Own); err != nil {
		return err
	}
	for _, r := range read {
		if err := bindBack(r.fd, r.path); err != nil {
			return err
		}
	}
	p.showProgram(shownProgram)
	if p.ReadOnly {
		if err := readOnlyExcept(p.Own); err != nil {
			return err
		}
	}
	if p.Proc {
		flags := uintptr(unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_RDONLY)
		if err := unix.Mount("proc", "/proc", "proc", flags, ""); err != nil {
			return fmt.Errorf("a fresh /proc: %w", err)
		}
	}
	// The working directory was the covered one: the same directory, but not the path.
	return os.Chdir(p.Own)
}

// fileLimit is the bot's limit on open files, 0 for none.
func (p *plan) fileLimit() int {
	for _, r := range p.Rlimits {
		if r.Resource == unix.RLIMIT_NOFILE {
			return int(r.Cur)
		}
	}
	return 0
}

// otherBotsQuotas are the copies of the other bots' tmpfs mounts (otherQuotas) that
// the subreaping helper unmounts once the bot is started.
var otherBotsQuotas []int

type openPath struct {
	path string
	fd   int
}

// coveredReads opens the paths the bot may read that a covered folder holds (a script
// run from below /home or /tmp), to bind them back. Config.Read and the program tree
// never hold a hidden path, so none comes back with them.
func (p *plan) coveredReads() ([]openPath, error) {
	var out []openPath
	for _, r := range p.Read {
		if !slices.ContainsFunc(p.Hide, func(h string) bool { return within(r, h) }) {
			continue
		}
		fd, err := unix.Open(r, unix.O_PATH|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, openPath{r, fd})
	}
	return out, nil
}

// bindBack mounts the directory (or file) open as fd at path again, which may lie
// below a covered folder: it is made there first.
func bindBack(fd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
	} else if err := os.MkdirAll(path, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d", fd), path, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("binding %s back: %w", path, err)
	}
	return nil
}

// cover hides a path: a directory under an empty tmpfs, a file under /dev/null. A path
// that is gone (or already under a covered parent) needs nothing.
func cover(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.IsDir() {
		err = unix.Mount("tmpfs", path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=16k,mode=0755")
	} else {
		err = unix.Mount("/dev/null", path, "", unix.MS_BIND, "")
	}
	if err != nil {
		return fmt.Errorf("hiding %s: %w", path, err)
	}
	var covered unix.Stat_t
	if st.IsDir() && unix.Stat(path, &covered) == nil {
		coverDevs = append(coverDevs, covered.Dev)
	}
	return nil
}

// coverDevs are the devices of the covers' empty tmpfs: what showProgram may write in.
var coverDevs []uint64

// showProgram binds the program the bot may read back at its own path when a cover
// of the host's folders hid it (a bot in a folder below /tmp or /home that is not
// given whole, because it also holds the run's replays), so that a script's
// interpreter is given that path (see ownName). Only into a cover's empty tmpfs: the
// host's own folders get nothing. A program in a folder hidden for itself (the
// ladder's store) stays hidden, and where the program cannot be shown the bot runs it
// by the open file's path, as before.
func (p *plan) showProgram(prog openPath) {
	if prog.path == "" || !filepath.IsAbs(prog.path) {
		return
	}
	for _, h := range p.Hide {
		if within(prog.path, h) && !slices.Contains(coveredRoots, h) {
			return
		}
	}
	if _, err := os.Lstat(prog.path); !errors.Is(err, os.ErrNotExist) {
		return
	}
	dir := filepath.Dir(prog.path)
	var st unix.Stat_t
	for unix.Lstat(dir, &st) != nil {
		dir = filepath.Dir(dir)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR && slices.Contains(coverDevs, st.Dev) {
		_ = bindBack(prog.fd, prog.path)
	}
}

// mountFlags are the per-mount flags a read-only remount must keep: in a user
// namespace the kernel refuses to clear the ones the host set.
var mountFlags = map[string]uintptr{"nosuid": unix.MS_NOSUID, "nodev": unix.MS_NODEV, "noexec": unix.MS_NOEXEC,
	"noatime": unix.MS_NOATIME, "nodiratime": unix.MS_NODIRATIME, "relatime": unix.MS_RELATIME}

// readOnlyExcept remounts every mount of the namespace read-only but the one at own.
// A mount that cannot be reached (below a covered path) is skipped; the root must
// succeed.
func readOnlyExcept(own string) error {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	defer f.Close()
	type mnt struct {
		path  string
		flags uintptr
	}
	var mounts []mnt
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		m := mnt{path: unescapeMount(fields[4])}
		for _, o := range strings.Split(fields[5], ",") {
			m.flags |= mountFlags[o]
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, m := range mounts {
		if m.path == own {
			continue
		}
		err := unix.Mount("", m.path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|m.flags, "")
		if err != nil && (m.path == "/" || !(errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EACCES))) {
			return fmt.Errorf("read-only %s: %w", m.path, err)
		}
	}
	return nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
