package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The disk quota bounds what a bot process may keep in its scratch directory, all its
// files together (RLIMIT_FSIZE bounds one file only: a bot that writes many fills
// the disk that the replays and the ladder's database are on). The arena, as root,
// mounts a tmpfs of the quota's size at the directory before the bot starts (the host
// still sees the go-plugin socket there): a write past it fails with ENOSPC, and the
// bot's files live in memory, charged to its memory cgroup, never on a shared disk.
// Where it cannot mount (not root), it measures the directory while the bot runs and
// stops a bot that has gone past the quota (WatchDisk).

// diskInodes is the number of files and directories the quota allows: one per 16 KiB
// of the quota, and at least 1024. Empty files take no space but each takes an inode,
// which on a tmpfs is the kernel's memory and on a disk its inode table.
func diskInodes(quota int64) int64 { return max(quota>>14, 1024) }

// limitDisk gives the box its disk quota: a tmpfs at its scratch directory, or, where
// none can be mounted, a watched limit. add records a layer (Prepare's); every level
// but none asks for both.
func (b *Box) limitDisk(quota int64, add func(layer string, ok bool, reason string) bool) {
	err := mountQuota(b.Dir, quota)
	reason := ""
	if err != nil {
		reason = fmt.Sprintf("a tmpfs cannot be mounted at the scratch directory (%v; it needs root): the arena measures the directory instead (%s)", err, DiskWatch)
	}
	if add(DiskQuota, err == nil, reason) {
		b.mounted = true
	} else if add(DiskWatch, true, "") {
		b.watchQuota = quota
	}
}

func mountQuota(dir string, quota int64) error {
	opts := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0700", quota, diskInodes(quota))
	return unix.Mount("arena-bot", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts)
}

// unmountDisk removes the box's tmpfs and stops its watch, if it has either. The
// unmount is lazy: a process the bot left may still hold a file open there, and the
// memory is freed when the last one lets go.
func (b *Box) unmountDisk() {
	if b.mounted {
		_ = unix.Unmount(b.Dir, unix.MNT_DETACH)
		b.mounted = false
	}
	if b.unwatch != nil {
		close(b.unwatch)
		b.unwatch = nil
	}
}

// unmountStale unmounts a dead arena's scratch directory, if it is a mount: otherwise
// its removal would empty the tmpfs and leave the mount behind. Not a mount (or not
// root): nothing to do.
func unmountStale(dir string) { _ = unix.Unmount(dir, unix.MNT_DETACH) }

// otherQuotas opens, in the bot's own mount namespace, the copies it was made with of
// the other bots' tmpfs mounts below the scratch root (every bot of every arena on the
// machine): hidden under the cover, a copy would still keep the other bot's files in
// memory, after that bot ended, for as long as this one lives. The bot's own stays
// (its directory is bound back from it). detachQuotas unmounts them.
//
// Each is parked at or above floor, the bot's limit on open files: the helper holds
// them until the bot has started, and a machine may run more bots than a bot may open
// files, whose descriptors below the limit would leave the helper none to open
// Landlock's paths or start the bot with (EMFILE).
func otherQuotas(root, own string, floor int) ([]int, error) {
	points, err := mountPoints()
	if err != nil {
		return nil, err
	}
	var fds []int
	for _, p := range points {
		if p != own && strings.HasPrefix(p, root+"/") {
			if fd, err := unix.Open(p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0); err == nil {
				fds = append(fds, parkAbove(fd, floor))
			}
		}
	}
	return fds, nil
}

// parkAbove moves fd to the lowest free descriptor at or above floor, close-on-exec,
// and returns it; fd itself where that cannot be (floor past the helper's own limit).
func parkAbove(fd, floor int) int {
	if floor <= 0 || fd >= floor {
		return fd
	}
	high, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, floor)
	if err != nil {
		return fd
	}
	unix.Close(fd)
	return high
}

// detachQuotas unmounts the copies open as fds (by the descriptor's path, which
// reaches a copy under the cover too) and closes them. Each unmount waits for an RCU
// grace period, which on a machine with a few dozen bots took a start 4-6 ms: the
// helper that stays as the bot's parent unmounts them once the bot is started (see
// reap). A copy that cannot be unmounted is left to the cover.
func detachQuotas(fds []int) {
	for _, fd := range fds {
		_ = unix.Unmount(fmt.Sprintf("/proc/self/fd/%d", fd), unix.MNT_DETACH)
		unix.Close(fd)
	}
}

// mountPoints lists the mount points of this mount namespace.
func mountPoints() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ...
		if fields := strings.Fields(sc.Text()); len(fields) > 4 {
			out = append(out, unescapeMount(fields[4]))
		}
	}
	return out, sc.Err()
}

// DiskQuotaError is why the host stopped a bot with a watched quota.
type DiskQuotaError struct {
	Used, Quota           int64 // bytes
	Entries, QuotaEntries int64 // files and directories
	// Unmeasured is why the directory could not be measured (a directory the bot
	// made unreadable), nil when it was.
	Unmeasured error
}

func (e *DiskQuotaError) Error() string {
	if e.Unmeasured != nil {
		return fmt.Sprintf("stopped by the arena: its scratch directory, under a disk quota of %d MiB (--bot-disk), cannot be measured: %v",
			e.Quota>>20, e.Unmeasured)
	}
	if e.Entries > e.QuotaEntries {
		return fmt.Sprintf("stopped by the arena: the bot made more than %d files in its scratch directory, the most its disk quota of %d MiB allows (--bot-disk)",
			e.QuotaEntries, e.Quota>>20)
	}
	return fmt.Sprintf("stopped by the arena: the bot wrote %.1f MiB into its scratch directory, past its disk quota of %d MiB (--bot-disk)",
		float64(e.Used)/(1<<20), e.Quota>>20)
}

// diskWatchEvery is how often a watched quota is measured. What a bot writes between
// two measurements goes past the quota before it is stopped: a bot writing as fast as
// it could went 13 to 68 MiB past an 8 MiB quota on the 2-core test machine. A
// measurement of a directory that holds a socket and a small file takes 50 to 100 µs.
const diskWatchEvery = 50 * time.Millisecond

// WatchDisk measures the scratch directory while the bot runs, when the box has a
// watched quota (layer DiskWatch), and calls over once, with a *DiskQuotaError, when
// the bot has gone past it; the caller stops the bot. The watch ends at Cleanup. A box
// with a tmpfs (or no quota) needs no watch, and WatchDisk does nothing.
func (b *Box) WatchDisk(over func(error)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.watchQuota <= 0 || b.unwatch != nil || b.Dir == "" {
		return
	}
	stop := make(chan struct{})
	b.unwatch = stop
	go watchDisk(b.Dir, b.watchQuota, stop, over)
}

func watchDisk(dir string, quota int64, stop <-chan struct{}, over func(error)) {
	tick := time.NewTicker(diskWatchEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if err := measureDisk(dir, quota); err != nil {
			over(err)
			return
		}
	}
}

// measureDisk adds up the space that the directory's files and directories take on
// the disk (their blocks: a sparse file counts what it holds, not its length) and
// their number, and returns a *DiskQuotaError when either is past the quota. A
// directory that the bot made unreadable counts as past it: what it holds cannot be
// measured.
func measureDisk(dir string, quota int64) error {
	e := &DiskQuotaError{Quota: quota, QuotaEntries: diskInodes(quota)}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while measured, or the box cleaned up
			}
			return err
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed while measured
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			e.Used += st.Blocks * 512
		}
		// All of it, to say how far past the quota the bot went; the number of
		// entries bounds the walk.
		if e.Entries++; e.Entries > e.QuotaEntries {
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		e.Unmeasured = err
		return e
	}
	if e.Used > e.Quota || e.Entries > e.QuotaEntries {
		return e
	}
	return nil
}
