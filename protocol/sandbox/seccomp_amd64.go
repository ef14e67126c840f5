package sandbox

import "golang.org/x/net/bpf"

// seccompProgram is package seccomppolicy's filter as go-seccomp-bpf assembles it on
// amd64, kept here as instructions so that neither the helper nor a bot program links
// the library (whose start builds every architecture's system-call tables, 0.16-0.27
// ms of each). TestTheSeccompProgramIsThePolicys holds it equal to the policy.
func seccompProgram() ([]bpf.RawInstruction, error) { return amd64Program, nil }

var amd64Program = []bpf.RawInstruction{
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000004},
	{Op: 0x0015, Jt: 1, Jf: 0, K: 0xc000003e},
	{Op: 0x0006, Jt: 0, Jf: 0, K: 0x00050026},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000004},
	{Op: 0x0015, Jt: 0, Jf: 21, K: 0xc000003e},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000000},
	{Op: 0x0035, Jt: 0, Jf: 1, K: 0x40000000},
	{Op: 0x0006, Jt: 0, Jf: 0, K: 0x00050026},
	{Op: 0x0015, Jt: 0, Jf: 8, K: 0x00000029},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000014},
	{Op: 0x0015, Jt: 0, Jf: 11, K: 0x00000000},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000010},
	{Op: 0x0015, Jt: 0, Jf: 9, K: 0x00000001},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x0000001c},
	{Op: 0x0045, Jt: 7, Jf: 0, K: 0x00000000},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000018},
	{Op: 0x0045, Jt: 5, Jf: 0, K: 0x0000000e},
	{Op: 0x0015, Jt: 0, Jf: 5, K: 0x00000035},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000014},
	{Op: 0x0015, Jt: 0, Jf: 2, K: 0x00000000},
	{Op: 0x0020, Jt: 0, Jf: 0, K: 0x00000010},
	{Op: 0x0015, Jt: 1, Jf: 0, K: 0x00000001},
	{Op: 0x0006, Jt: 0, Jf: 0, K: 0x00050001},
	{Op: 0x0015, Jt: 1, Jf: 0, K: 0x000001a9},
	{Op: 0x0015, Jt: 0, Jf: 1, K: 0x0000002a},
	{Op: 0x0006, Jt: 0, Jf: 0, K: 0x00050001},
	{Op: 0x0006, Jt: 0, Jf: 0, K: 0x7fff0000},
}
