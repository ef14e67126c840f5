// Package builtin is the table of the bots that ship with the arena: `arena match`
// finds them by name and the arena binary serves them itself (`arena serve-bot NAME`),
// so no other build step is needed; their own programs (cmd/bots/NAME) serve them
// instead when built beside the arena from the same clean commit (package companion).
// Adding a bot is one line in bots and its program in cmd/bots.
//
// A bot that takes settings gets them after a colon in its name:
// `ismcts:time=100ms`, `ismcts:iterations=2000` (see plugins/ismcts.ParseSettings).
package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/plugins/ismcts"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
)

// maker reads a bot's settings and returns what makes its policy for one seat of one
// match.
type maker func(settings string) (func(protocol.Match) engine.Policy, error)

// bots maps a name to its maker.
var bots = map[string]maker{
	"random":    plain(func(m protocol.Match) engine.Policy { return random.New(m.Seed) }),
	"heuristic": plain(func(protocol.Match) engine.Policy { return heuristic.New() }),
	"ismcts":    ismctsBot,
}

// plain is a bot without settings.
func plain(f func(protocol.Match) engine.Policy) maker {
	return func(settings string) (func(protocol.Match) engine.Policy, error) {
		if settings != "" {
			return nil, fmt.Errorf("takes no settings, got %q", settings)
		}
		return f, nil
	}
}

func ismctsBot(settings string) (func(protocol.Match) engine.Policy, error) {
	cfg, err := ismcts.ParseSettings(settings)
	if err != nil {
		return nil, err
	}
	return func(m protocol.Match) engine.Policy {
		p, err := ismcts.ForMatch(m, cfg)
		if err != nil {
			return nil // the SDK refuses the match: this game has no sampler
		}
		return p
	}, nil
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

// Check reports whether name (with its settings, if any) is a built-in bot, and if not
// why.
func Check(name string) error {
	_, err := lookup(name)
	return err
}

// Has reports whether name (with its settings, if any) is a built-in bot.
func Has(name string) bool { return Check(name) == nil }

// IsBuiltinName reports whether name, settings aside, names a built-in bot: its
// settings may still be wrong (Check says).
func IsBuiltinName(name string) bool {
	base, _, _ := strings.Cut(name, ":")
	_, ok := bots[base]
	return ok
}

func lookup(name string) (func(protocol.Match) engine.Policy, error) {
	base, settings, _ := strings.Cut(name, ":")
	m, ok := bots[base]
	if !ok {
		return nil, fmt.Errorf("unknown built-in bot %q (built-in: %s)", base, strings.Join(Names(), ", "))
	}
	f, err := m(settings)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", name, err)
	}
	return f, nil
}

// Serve runs the named bot as a bot process; it returns only an error for an unknown
// name or bad settings.
func Serve(name string) error {
	f, err := lookup(name)
	if err != nil {
		return err
	}
	protocol.ServeMatches(f)
	return nil
}
