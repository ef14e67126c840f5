package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// onlyUnixSockets loads a seccomp filter on this thread (the helper's, which execs the
// bot next): sockets of any family but AF_UNIX fail with EPERM, connect and io_uring
// too, and every system call of another architecture with ENOSYS (package
// seccomppolicy says why). Without a network namespace this is what keeps a bot off
// the network; Landlock governs neither sockets nor connect, so without it a bot at
// basic could talk to every socket file of the host its user may write to (/run's, a
// world-writable one in /tmp).
func onlyUnixSockets() error {
	prog, err := seccompProgram()
	if err != nil {
		return err
	}
	return loadFilter(prog)
}

// loadFilter installs a seccomp program on this thread (no TSYNC: the helper's other
// threads start nothing).
func loadFilter(raw []bpf.RawInstruction) error {
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return fmt.Errorf("loading the filter: %w", errno)
	}
	return nil
}
