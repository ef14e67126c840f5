// Command arena-bot serves the arena's built-in bots (`arena-bot serve-bot NAME`, as
// `arena serve-bot NAME` does) in a program that holds only the bots, the games and the
// SDK: no ladder, store, metrics or command line, so that it starts in a fraction of
// the arena's time. The arena uses it when it lies beside the arena's own executable
// and comes from the same build; otherwise the arena serves its built-in bots itself.
package main

import (
	"fmt"
	"os"

	"github.com/arena-games/arena/plugins/builtin"
)

// serveArg is the command both this program and the arena take to serve a bot.
const serveArg = "serve-bot"

func main() {
	if len(os.Args) != 3 || os.Args[1] != serveArg {
		fmt.Fprintf(os.Stderr, "arena-bot: usage: arena-bot %s NAME (the arena starts it; built-in: %v)\n", serveArg, builtin.Names())
		os.Exit(2)
	}
	if err := builtin.Serve(os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "arena-bot:", err)
		os.Exit(1)
	}
}
