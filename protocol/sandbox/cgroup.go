package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroupParent is where the arena makes its bots' cgroups for one controller: below
// its own cgroup, which it may write to as root or by delegation.
type cgroupParent struct {
	version int
	parent  string
	kind    string
}

// cgroupDir is one bot process's cgroup for one controller (v2: for both).
type cgroupDir struct {
	version int
	path    string
}

var cgroupSeq atomic.Int64

// findCgroup finds a cgroup this process may make children in for the controller, and
// proves it by making one.
func findCgroup(controller string) (*cgroupParent, string) {
	mounts, mount2 := cgroupMounts()
	own, own2, has2 := ownCgroups()
	var p *cgroupParent
	if m, ok := mounts[controller]; ok {
		if path, ok := own[controller]; ok {
			rel := strings.TrimPrefix(path, m[0])
			p = &cgroupParent{version: 1, parent: filepath.Join(m[1], rel), kind: controller}
		}
	}
	if p == nil && mount2[1] != "" && has2 {
		rel := strings.TrimPrefix(own2, mount2[0])
		parent := filepath.Join(mount2[1], rel)
		ctrls, _ := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
		if !contains(strings.Fields(string(ctrls)), controller) {
			return nil, fmt.Sprintf("cgroup v2 at %s has no %s controller", parent, controller)
		}
		sub, _ := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
		if !contains(strings.Fields(string(sub)), controller) {
			if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+"+controller), 0); err != nil {
				return nil, fmt.Sprintf("cgroup v2: cannot enable %s below %s (delegate a cgroup to the arena): %v", controller, parent, err)
			}
		}
		p = &cgroupParent{version: 2, parent: parent, kind: controller}
	}
	if p == nil {
		return nil, fmt.Sprintf("no %s cgroup controller is mounted", controller)
	}
	cleanStale(p.version, p.parent)
	d, err := p.mkdir()
	if err != nil {
		return nil, fmt.Sprintf("cannot make a %s cgroup below %s (root or a delegated cgroup needed): %v", controller, p.parent, err)
	}
	d.remove()
	return p, ""
}

func (p *cgroupParent) mkdir() (*cgroupDir, error) {
	name := fmt.Sprintf("arena-bot-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	path := filepath.Join(p.parent, name)
	if err := os.Mkdir(path, 0o755); err != nil {
		return nil, err
	}
	return &cgroupDir{version: p.version, path: path}, nil
}

// create makes a bot's cgroup with its limits.
func (p *cgroupParent) create(kind string, lim Limits) (*cgroupDir, error) {
	d, err := p.mkdir()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %s cgroup: %w", kind, err)
	}
	switch {
	case kind == "pids":
		err = d.setPids(lim)
	case p.version == 1:
		err = d.write("memory.limit_in_bytes", lim.Memory)
		if err == nil {
			// No swap either, where swap is accounted.
			if _, serr := os.Stat(filepath.Join(d.path, "memory.memsw.limit_in_bytes")); serr == nil {
				err = d.write("memory.memsw.limit_in_bytes", lim.Memory)
			}
		}
	default:
		err = d.write("memory.max", lim.Memory)
		if _, serr := os.Stat(filepath.Join(d.path, "memory.swap.max")); err == nil && serr == nil {
			err = d.write("memory.swap.max", 0)
		}
	}
	if err != nil {
		d.remove()
		return nil, fmt.Errorf("sandbox: %s cgroup limits: %w", kind, err)
	}
	return d, nil
}

func (d *cgroupDir) setPids(lim Limits) error { return d.write("pids.max", int64(lim.Processes)) }

func (d *cgroupDir) write(file string, v int64) error {
	return os.WriteFile(filepath.Join(d.path, file), []byte(strconv.FormatInt(v, 10)), 0)
}

func (d *cgroupDir) procs() string { return filepath.Join(d.path, "cgroup.procs") }

// joinFile is the file the helper writes "0" to, to join the cgroup. On v1 that is
// "tasks", which moves only the writing thread, the one that starts the bot (which
// inherits its cgroups): a move through "cgroup.procs" moves a whole process and takes
// the kernel's lock on every process's threads for writing, which waits for an RCU
// grace period, 5-16 ms on this machine kind, the largest single part of a sandboxed
// bot's start. v2 allows single threads only in threaded cgroups, so it moves the
// process.
func (d *cgroupDir) joinFile() string {
	if d.version == 1 {
		return filepath.Join(d.path, "tasks")
	}
	return d.procs()
}

// kill ends every process in the cgroup, however it left its process group.
func (d *cgroupDir) kill() {
	if d.version == 2 {
		if os.WriteFile(filepath.Join(d.path, "cgroup.kill"), []byte("1"), 0) == nil {
			return
		}
	}
	for i := 0; i < 100; i++ {
		b, err := os.ReadFile(d.procs())
		if err != nil || len(strings.TrimSpace(string(b))) == 0 {
			return
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// remove deletes the cgroup once its processes are gone (they take a moment to leave).
func (d *cgroupDir) remove() {
	for i := 0; i < 200; i++ {
		err := os.Remove(d.path)
		if err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cleanStale removes the cgroups left by arenas that were killed before cleaning up,
// killing what still runs in them first: an arena killed while a bot was starting can
// leave that bot running (its parent-death signal was set after the parent died, and
// in a PID namespace of its own it cannot see its parent go).
func cleanStale(version int, parent string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "arena-bot-")
		if !ok || !e.IsDir() {
			continue
		}
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			d := &cgroupDir{version: version, path: filepath.Join(parent, e.Name())}
			d.kill()
			d.remove()
		}
	}
}
