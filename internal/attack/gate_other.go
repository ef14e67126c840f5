//go:build !amd64

package attack

import "syscall"

// Gate: this architecture has no i386 gate (arm64's 32-bit programs need a
// 32-bit build, which a Go test cannot be).
const Gate = false

// x32Bit: there is no x32 ABI here.
const x32Bit = 0

func int80(nr, a1, a2, a3 uintptr) uintptr { return 0 }

func low(int) ([]byte, error) { return nil, syscall.ENOSYS }

func addr([]byte) uintptr { return 0 }
