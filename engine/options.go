package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// Options are the settings a game is played with besides its seed and player count: a
// board, a deck. Each maps an option's name to its text (a data file's contents, never
// a path), so that a replay, a ladder and a bot on another machine all see exactly what
// was played. Nil or empty is the game's defaults.
type Options map[string]string

// OptionSpec declares one option a game takes.
type OptionSpec struct {
	// Name is the option's name, and the command line's flag for it ("board").
	Name string
	// Usage says what its text is, for people.
	Usage string
}

// Prepare turns a game's options into a way to start games with them. It checks and
// parses the options once (a board file, say), so that starting many games costs no
// more than starting one with the defaults.
type Prepare func(opts Options) (Starter, error)

// Starter starts one game with prepared options.
type Starter func(seed uint64, players int) (Game, error)

type configurable struct {
	options []OptionSpec
	prepare Prepare
}

var configurables = map[string]configurable{}

// RegisterOptions declares the options the registered game name takes and how to
// prepare them. A game that never calls it takes no options.
func RegisterOptions(name string, options []OptionSpec, prepare Prepare) {
	mu.Lock()
	defer mu.Unlock()
	configurables[name] = configurable{options: options, prepare: prepare}
}

// OptionsOf lists the options a registered game takes (none for an unknown game).
func OptionsOf(name string) []OptionSpec {
	mu.RLock()
	defer mu.RUnlock()
	return configurables[name].options
}

// PrepareGame checks opts against the game's declared options and prepares them; the
// Starter it returns checks the player count like New.
func PrepareGame(name string, opts Options) (Starter, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	for _, k := range opts.Names() {
		if err := CheckOption(name, k); err != nil {
			return nil, err
		}
	}
	mu.RLock()
	c := configurables[name]
	mu.RUnlock()
	start := spec.New
	if len(opts) > 0 {
		if start, err = c.prepare(opts); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return func(seed uint64, players int) (Game, error) {
		if err := spec.CheckPlayers(players); err != nil {
			return nil, err
		}
		return start(seed, players)
	}, nil
}

// NewWith starts the named game with options: PrepareGame and one start.
func NewWith(name string, seed uint64, players int, opts Options) (Game, error) {
	start, err := PrepareGame(name, opts)
	if err != nil {
		return nil, err
	}
	return start(seed, players)
}

// CheckOption reports whether the registered game takes an option of that name.
func CheckOption(game, option string) error {
	mu.RLock()
	c := configurables[game]
	mu.RUnlock()
	if !c.takes(option) {
		return fmt.Errorf("%s takes no option %q (%s)", game, option, c.describe())
	}
	return nil
}

func (c configurable) takes(name string) bool {
	for _, o := range c.options {
		if o.Name == name {
			return true
		}
	}
	return false
}

func (c configurable) describe() string {
	if len(c.options) == 0 {
		return "it takes none"
	}
	names := make([]string, len(c.options))
	for i, o := range c.options {
		names[i] = o.Name
	}
	return "it takes " + strings.Join(names, ", ")
}

// Names lists the options set, in order.
func (o Options) Names() []string {
	n := make([]string, 0, len(o))
	for k := range o {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Digest is a short hex digest of one option's text (the first 12 hex digits of its
// SHA-256): enough to tell boards apart in a name, not to prove anything.
func Digest(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])[:12]
}

// Variant names a game with its options, for keeping results apart: the game's name
// alone with the defaults, else the name, "@" and each option as NAME-DIGEST, joined by
// "+" ("kardinal@board-3f2a9c1e04b7"). It is safe as a file name.
func Variant(game string, opts Options) string {
	if len(opts) == 0 {
		return game
	}
	parts := make([]string, 0, len(opts))
	for _, k := range opts.Names() {
		parts = append(parts, k+"-"+Digest(opts[k]))
	}
	return game + "@" + strings.Join(parts, "+")
}

// VariantGame is the game's name in a Variant.
func VariantGame(variant string) string {
	g, _, _ := strings.Cut(variant, "@")
	return g
}
