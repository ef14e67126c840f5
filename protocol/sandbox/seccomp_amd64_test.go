package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/protocol/sandbox/seccomppolicy"
)

// TestTheSeccompProgramIsThePolicys: the filter the helper loads on amd64 is what
// go-seccomp-bpf assembles from the policy; after a change of either, the message
// gives the table to paste into seccomp_amd64.go.
func TestTheSeccompProgramIsThePolicys(t *testing.T) {
	want, err := seccomppolicy.Program()
	require.NoError(t, err)
	got, err := seccompProgram()
	require.NoError(t, err)
	var table strings.Builder
	for _, r := range want {
		fmt.Fprintf(&table, "\t{Op: %#04x, Jt: %d, Jf: %d, K: %#08x},\n", r.Op, r.Jt, r.Jf, r.K)
	}
	require.Equal(t, want, got, "seccomp_amd64.go's program should be:\n%s", table.String())
}
