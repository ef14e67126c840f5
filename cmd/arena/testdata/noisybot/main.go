// Command noisybot plays at random and writes markup to stderr at every match, so
// that tests can check a ladder's pages never render what a bot writes.
package main

import (
	"fmt"
	"os"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

func main() {
	protocol.ServeMatches(func(m protocol.Match) engine.Policy {
		fmt.Fprintln(os.Stderr, `noisy <script>alert("stderr")</script> <img src=x onerror=alert(1)>`)
		return random.New(m.Seed)
	})
}
