package sandbox

import (
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// onlyUnixSockets loads a seccomp filter on this thread (the helper's, which execs the
// bot next): sockets of any family but AF_UNIX fail with EPERM (no UDP, TCP, raw or
// netlink), and io_uring, which could open sockets past the filter, is refused.
// Without a network namespace this is what keeps a bot off the network.
//
// Every system call of another architecture than the arena's own fails with ENOSYS:
// on amd64 a program may enter the kernel through the i386 gate (int $0x80), whose
// call numbers and audit architecture differ, and the library's program lets any
// call of a foreign architecture through (its first jump goes to the default action,
// allow). The x32 calls (the native architecture with bit 30 set) the library
// refuses itself.
//
// A bot serves (it listens in its scratch directory; the arena dials it) and never
// dials: connect fails, and so does a unix socket of any type but a stream, since a
// datagram one reaches any socket file by sendto's address. Landlock does not govern
// either, so without this a bot at basic could talk to every socket file of the host
// its user may write to (/run's, a world-writable one in /tmp).
func onlyUnixSockets() error {
	native, err := arch.GetInfo("")
	if err != nil {
		return err
	}
	notUnix := seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}}
	// The type's low bits: SOCK_STREAM is 1; every other type has a bit of 0xe.
	notStream := seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.BitsSet, Value: 0xe}}
	policy := seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
				{Name: "socket", Conditions: notUnix}, {Name: "socketpair", Conditions: notUnix},
				{Name: "socket", Conditions: notStream}}},
			{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup", "connect"}},
		},
	}
	calls, err := policy.Assemble()
	if err != nil {
		return err
	}
	prog, err := bpf.Assemble(append(nativeOnly(uint32(native.ID)), calls...))
	if err != nil {
		return err
	}
	return loadFilter(prog)
}

// seccompDataArch is the offset of the audit architecture in struct seccomp_data.
const seccompDataArch = 4

// nativeOnly is the filter's first part: a call made under any other audit
// architecture than native fails with ENOSYS before anything else is looked at.
func nativeOnly(native uint32) []bpf.Instruction {
	return []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompDataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: native, SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	}
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
