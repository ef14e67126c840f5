// Package builtin is the table of the bots that ship with the arena: `arena match`
// finds them by name and the arena binary serves them itself (`arena serve-bot NAME`),
// so no other build step is needed. Adding a bot is one line in bots.
package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

// bots maps a name to the policy of one seat of one match.
var bots = map[string]func(m protocol.Match) engine.Policy{
	"random":    func(m protocol.Match) engine.Policy { return random.New(m.Seed) },
	"heuristic": func(protocol.Match) engine.Policy { return heuristic.New() },
}

// Names lists the built-in bots.
func Names() []string {
	n := make([]string, 0, len(bots))
	for k := range bots {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Has reports whether name is a built-in bot.
func Has(name string) bool { _, ok := bots[name]; return ok }

// Serve runs the named bot as a bot process; it returns only an error for an unknown
// name.
func Serve(name string) error {
	f, ok := bots[name]
	if !ok {
		return fmt.Errorf("unknown built-in bot %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	protocol.ServeMatches(f)
	return nil
}
