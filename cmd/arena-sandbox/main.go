// Command arena-sandbox is the sandbox's helper as a program of its own: the arena
// starts every bot through it, and it confines itself and then execs the bot (see
// package sandbox). It runs the very code `arena sandbox-exec` runs (sandbox.RunHelper),
// in a program that imports nothing else, so that it starts in a fraction of the
// arena's time. The arena uses it when it lies beside the arena's own executable and
// comes from the same build; otherwise the arena is its own helper.
package main

import (
	"fmt"
	"os"

	"github.com/arena-games/arena/protocol/sandbox"
)

// digestArg asks for the digest of the sandbox code it was built from: the arena uses
// the program only if the digest is its own.
const digestArg = "digest"

func main() {
	// Started as the helper, with a plan, it never returns.
	sandbox.RunHelper(os.Args)
	if len(os.Args) == 2 && os.Args[1] == digestArg {
		fmt.Println(sandbox.CodeDigest())
		return
	}
	fmt.Fprintln(os.Stderr, "arena-sandbox: the arena starts this program to confine a bot; it is not run by hand")
	os.Exit(2)
}
