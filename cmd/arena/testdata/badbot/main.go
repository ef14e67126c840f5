// Command badbot plays the first option until its third decision of a match, where it
// misbehaves as its program's name says (so that one build serves every test, under
// several names): badbot-illegal answers option 9999, badbot-timeout sleeps past any
// deadline, badbot-crash writes a line to stderr and exits.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol"
)

func main() {
	mode := strings.TrimPrefix(filepath.Base(os.Args[0]), "badbot-")
	stderr := os.Stderr // go-plugin redirects os.Stderr once serving
	protocol.ServeMatches(func(protocol.Match) engine.Policy {
		n := 0
		return engine.PolicyFunc(func(engine.View, []engine.Event, []engine.Option) int {
			if n++; n < 3 {
				return 0
			}
			switch mode {
			case "illegal":
				return 9999
			case "timeout":
				time.Sleep(time.Hour)
			case "crash":
				fmt.Fprintln(stderr, "badbot: boom, on purpose")
				os.Exit(3)
			}
			return 0
		})
	})
}
