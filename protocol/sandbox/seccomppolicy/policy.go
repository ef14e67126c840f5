// Package seccomppolicy is the bot's seccomp filter as a policy of go-seccomp-bpf,
// assembled for the architecture the program runs on. The sandbox loads it as
// instructions: on amd64 a copy assembled ahead of time (package sandbox's
// seccomp_amd64.go, which a test holds equal to Program), so that neither the helper
// nor a bot program links the library, whose package builds the system-call tables of
// every architecture as a program starts (0.16-0.27 ms of each start); elsewhere
// through this package at run time.
//
// The filter: sockets of any family but AF_UNIX fail with EPERM (no UDP, TCP, raw or
// netlink), and io_uring, which could open sockets past the filter, is refused. A bot
// serves (it listens in its scratch directory; the arena dials it) and never dials:
// connect fails, and so does a unix socket of any type but a stream, since a datagram
// one reaches any socket file by sendto's address. Every system call of another
// architecture than the program's own fails with ENOSYS: on amd64 a program may enter
// the kernel through the i386 gate (int $0x80), whose call numbers and audit
// architecture differ, and the library's program lets any call of a foreign
// architecture through (its first jump goes to the default action, allow). The x32
// calls (the native architecture with bit 30 set) the library refuses itself.
package seccomppolicy

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompDataArch is the offset of the audit architecture in struct seccomp_data.
const seccompDataArch = 4

// Program is the filter for this program's architecture.
func Program() ([]bpf.RawInstruction, error) {
	native, err := arch.GetInfo("")
	if err != nil {
		return nil, err
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
		return nil, err
	}
	// First, a call made under any other audit architecture fails with ENOSYS before
	// anything else is looked at.
	nativeOnly := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompDataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(native.ID), SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	}
	return bpf.Assemble(append(nativeOnly, calls...))
}
