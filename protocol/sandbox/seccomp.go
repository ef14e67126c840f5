package sandbox

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// onlyUnixSockets loads a seccomp filter on this thread (the helper's, which execs the
// bot next): sockets of any family but AF_UNIX fail with EPERM (no UDP, TCP, raw or
// netlink), and io_uring, which could open sockets past the filter, is refused.
// Without a network namespace this is what keeps a bot off the network.
//
// A bot serves (it listens in its scratch directory; the arena dials it) and never
// dials: connect fails, and so does a unix socket of any type but a stream, since a
// datagram one reaches any socket file by sendto's address. Landlock does not govern
// either, so without this a bot at basic could talk to every socket file of the host
// its user may write to (/run's, a world-writable one in /tmp).
func onlyUnixSockets() error {
	notUnix := seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}}
	// The type's low bits: SOCK_STREAM is 1; every other type has a bit of 0xe.
	notStream := seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.BitsSet, Value: 0xe}}
	return seccomp.LoadFilter(seccomp.Filter{
		NoNewPrivs: true,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
					{Name: "socket", Conditions: notUnix}, {Name: "socketpair", Conditions: notUnix},
					{Name: "socket", Conditions: notStream}}},
				{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup", "connect"}},
			},
		},
	})
}
