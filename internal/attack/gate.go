package attack

import "syscall"

// The i386 call numbers used here (arch/x86/entry/syscalls/syscall_32.tbl).
const (
	i386Socket       = 359
	i386IOURingSetup = 425
)

// gateSocket makes a socket through the i386 gate; the descriptor is an ordinary one
// of the process, for the native calls to use.
func gateSocket(domain, typ, proto int) (int, error) {
	return gate(i386Socket, uintptr(domain), uintptr(typ), uintptr(proto))
}

// gateIOURing sets up an io_uring of a few entries through the i386 gate.
func gateIOURing() (int, error) {
	params, err := low(120) // struct io_uring_params
	if err != nil {
		return -1, err
	}
	defer syscall.Munmap(params)
	return gate(i386IOURingSetup, 4, addr(params), 0)
}

// gate makes system call nr with three arguments through the i386 gate.
func gate(nr, a1, a2, a3 uintptr) (int, error) {
	if !Gate {
		return -1, syscall.ENOSYS
	}
	r := int32(int80(nr, a1, a2, a3))
	if r < 0 && r > -4096 {
		return -1, syscall.Errno(-r)
	}
	return int(r), nil
}
