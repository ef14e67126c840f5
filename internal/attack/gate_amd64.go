package attack

import (
	"syscall"
	"unsafe"
)

// Gate: this architecture has the i386 gate.
const Gate = true

// x32Bit marks a call of the x32 ABI (__X32_SYSCALL_BIT): amd64's numbers, 32-bit
// pointers.
const x32Bit = 0x40000000

// int80 is in gate_amd64.s: the arguments go to ebx, ecx and edx, as i386 wants them.
func int80(nr, a1, a2, a3 uintptr) uintptr

// low maps n bytes below 4 GiB, where a 32-bit call can address them (the gate
// truncates pointers to 32 bits, and Go's heap lies above).
func low(n int) ([]byte, error) {
	const map32bit = 0x40 // MAP_32BIT
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|map32bit)
}

func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
