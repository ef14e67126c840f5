//go:build !amd64

package sandbox

import (
	"golang.org/x/net/bpf"

	"github.com/arena-games/arena/protocol/sandbox/seccomppolicy"
)

// seccompProgram is package seccomppolicy's filter, assembled now: amd64 has it
// assembled ahead (seccomp_amd64.go).
func seccompProgram() ([]bpf.RawInstruction, error) { return seccomppolicy.Program() }
