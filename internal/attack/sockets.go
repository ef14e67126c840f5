// Package attack is what the tests' hostile bots do to get past the sandbox, where
// more than one test suite needs it: ask for network sockets in every way into the
// kernel (Sockets), and fill the disk in many files (FillDisk). The bots run it inside
// the sandbox; nothing else should.
package attack

import (
	"net/netip"

	"unsafe"

	"golang.org/x/sys/unix"
)

// Attempt is one call and what came of it: "made" (and ", sent a datagram" where one
// went out) or the error.
type Attempt struct {
	Call    string
	Outcome string
}

// Made reports whether the call gave the bot its socket or io_uring.
func (a Attempt) Made() bool { return len(a.Outcome) >= 4 && a.Outcome[:4] == "made" }

// ABI is a way into the kernel: a socket call and an io_uring set-up.
type ABI struct {
	Name    string
	Socket  func(domain, typ, proto int) (int, error)
	IOURing func() (int, error)
}

// The ways into the kernel this architecture has.
func ABIs() []ABI {
	abis := []ABI{{Name: "native", Socket: unix.Socket, IOURing: func() (int, error) { return ioURing(0) }}}
	if x32Bit != 0 {
		abis = append(abis, ABI{Name: "x32", Socket: x32Socket, IOURing: func() (int, error) { return ioURing(x32Bit) }})
	}
	if Gate {
		abis = append(abis, ABI{Name: "i386", Socket: gateSocket, IOURing: gateIOURing})
	}
	return abis
}

var families = []struct {
	name              string
	domain, typ, prot int
}{
	{"AF_INET", unix.AF_INET, unix.SOCK_DGRAM, 0},
	{"AF_INET6", unix.AF_INET6, unix.SOCK_DGRAM, 0},
	{"AF_NETLINK", unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE},
	{"AF_VSOCK", unix.AF_VSOCK, unix.SOCK_STREAM, 0},
}

// Sockets asks for sockets of the families that lead off the machine or into the
// kernel (AF_INET, AF_INET6, AF_NETLINK, AF_VSOCK) and for an io_uring (which runs
// socket calls where no seccomp filter sees them), each in every way into the kernel
// this architecture has: natively, with the x32 numbers and, on amd64, through the
// i386 gate (int $0x80), as a 32-bit program does. It closes what it got. Where it
// gets an AF_INET socket and udp (host:port) is set, it sends a datagram there, as
// the bot that found the hole would.
func Sockets(udp string) []Attempt {
	var out []Attempt
	for _, abi := range ABIs() {
		for _, f := range families {
			fd, err := abi.Socket(f.domain, f.typ, f.prot)
			a := Attempt{Call: abi.Name + " socket(" + f.name + ")", Outcome: outcome(err)}
			if err == nil {
				if f.domain == unix.AF_INET && udp != "" {
					a.Outcome += sendTo(fd, udp)
				}
				unix.Close(fd)
			}
			out = append(out, a)
		}
		fd, err := abi.IOURing()
		if err == nil {
			unix.Close(fd)
		}
		out = append(out, Attempt{Call: abi.Name + " io_uring_setup", Outcome: outcome(err)})
	}
	return out
}

func outcome(err error) string {
	if err != nil {
		return err.Error()
	}
	return "made"
}

func sendTo(fd int, udp string) string {
	ap, err := netip.ParseAddrPort(udp)
	if err != nil || !ap.Addr().Is4() {
		return ", no IPv4 address to send to: " + udp
	}
	if err := unix.Sendto(fd, []byte("hello from a bot"), 0, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
		return ", sending failed: " + err.Error()
	}
	return ", sent a datagram"
}

// ioURing sets up an io_uring of a few entries with the native numbers, or the x32
// ones when bit is set.
func ioURing(bit uintptr) (int, error) {
	var params [120]byte // struct io_uring_params
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP|bit, 4, uintptr(unsafe.Pointer(&params[0])), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

func x32Socket(domain, typ, proto int) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_SOCKET|x32Bit, uintptr(domain), uintptr(typ), uintptr(proto))
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}
