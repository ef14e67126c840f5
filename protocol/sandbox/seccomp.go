package sandbox

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// onlyUnixSockets loads a seccomp filter on this thread (the helper's, which execs the
// bot next): sockets of any family but AF_UNIX fail with EPERM (no UDP, TCP, raw or
// netlink), and io_uring, which could open sockets past the filter, is refused.
// Without a network namespace this is what keeps a bot off the network.
func onlyUnixSockets() error {
	notUnix := seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
					{Name: "socket", Conditions: notUnix}, {Name: "socketpair", Conditions: notUnix}}},
				{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup"}},
			},
		},
	})
}
