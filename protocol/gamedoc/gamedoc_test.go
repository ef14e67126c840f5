package gamedoc

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	_ "github.com/arena-games/arena/games"
)

var update = flag.Bool("update", false, "rewrite the committed descriptions")

// The committed copies bot authors read: the protocol's and the Python SDK's.
var committed = []string{"../games.json", "../../sdk/python/arena_bot/games.json"}

func TestCommittedDescriptionMatchesEngines(t *testing.T) {
	want, err := Marshal(Build())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range committed {
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the engines' tables give: run `go test ./protocol/gamedoc -update`", filepath.Clean(path))
		}
	}
}

// TestArgumentRolesMatchEngines plays seeded random games of every size and checks each
// listed option and each event against its kind's declared arguments: every declared
// argument within its type's domain, every other option argument -1.
func TestArgumentRolesMatchEngines(t *testing.T) {
	for _, g := range Build().Games {
		for players := g.MinPlayers; players <= g.MaxPlayers; players++ {
			for seed := uint64(1); seed <= 12; seed++ {
				if err := playChecked(g, seed, players); err != nil {
					t.Fatalf("%s, %d players, seed %d: %v", g.Name, players, seed, err)
				}
			}
		}
	}
}

func playChecked(g *Game, seed uint64, players int) error {
	game, err := engine.New(g.Name, seed, players)
	if err != nil {
		return err
	}
	c := checker{g: g, players: players}
	if kg, ok := game.(interface{ Board() *kardinal.Board }); ok {
		c.spaces = kg.Board().Spaces()
	}
	r := engine.NewRand(seed)
	seen := 0
	for !game.Terminal() {
		opts := game.Options()
		for _, o := range opts {
			if err := c.option(o); err != nil {
				return fmt.Errorf("option %q %+v: %w", game.Describe(o), o, err)
			}
		}
		if err := game.Apply(r.Intn(len(opts))); err != nil {
			return err
		}
		log := game.Log()
		for _, e := range log[seen:] {
			if err := c.event(e); err != nil {
				return fmt.Errorf("event %q %+v: %w", game.DescribeEvent(e), e, err)
			}
		}
		seen = len(log)
	}
	return nil
}

type checker struct {
	g       *Game
	players int
	spaces  int
}

func (c checker) option(o engine.Option) error {
	if int(o.Kind) < 1 || int(o.Kind) > len(c.g.Options) {
		return fmt.Errorf("kind %d is not described", o.Kind)
	}
	k := c.g.Options[o.Kind-1]
	vals := map[string]int{"a": int(o.A), "b": int(o.B), "c": int(o.C), "d": int(o.D)}
	declared := c.argsFor(k, vals)
	for f, v := range vals {
		a, ok := declared[f]
		if !ok {
			if v != -1 {
				return fmt.Errorf("field %s is %d but %s declares no such argument", f, v, k.Enum)
			}
			continue
		}
		if err := c.inDomain(a.Type, v); err != nil {
			return fmt.Errorf("%s (%s): %w", a.Name, f, err)
		}
	}
	return nil
}

func (c checker) event(e engine.Event) error {
	if int(e.Kind) < 1 || int(e.Kind) > len(c.g.Events) {
		return fmt.Errorf("kind %d is not described", e.Kind)
	}
	k := c.g.Events[e.Kind-1]
	vals := map[string]int{"a": int(e.A), "b": int(e.B), "c": int(e.C)}
	for _, a := range c.argsFor(k, vals) {
		if err := c.inDomain(a.Type, vals[a.Field]); err != nil {
			return fmt.Errorf("%s (%s): %w", a.Name, a.Field, err)
		}
	}
	return nil
}

// argsFor is a kind's arguments for these values, its matching case first.
func (c checker) argsFor(k Kind, vals map[string]int) map[string]Arg {
	list := k.Args
	if k.CaseOf != "" {
		for _, a := range k.Args {
			if a.Name != k.CaseOf {
				continue
			}
			for _, cs := range k.Cases {
				for _, w := range cs.When {
					if v := vals[a.Field]; v >= 0 && v < len(c.g.Cards) && c.g.Cards[v].Enum == w {
						list = cs.Args
					}
				}
			}
		}
	}
	out := map[string]Arg{}
	for _, a := range list {
		out[a.Field] = a
	}
	return out
}

func (c checker) inDomain(typ string, v int) error {
	lo, hi := 0, 1<<15
	switch typ {
	case "seat":
		hi = c.players - 1
	case "seat_or_none":
		lo, hi = -1, c.players-1
	case "card":
		hi = len(c.g.Cards) - 1
	case "colour":
		hi = len(c.g.Colours) - 1
	case "country":
		hi = len(c.g.Countries) - 1
	case "space":
		lo, hi = -1, c.spaces-1
	case "from":
		lo, hi = -1, len(c.g.Cards)-1
	case "flag":
		hi = 1
	case "face":
		lo = -3
	case "pay":
		hi = 2*len(c.g.Cards) - 1
	case "count_jester":
		if v&^256 < 1 || v&^256 > 255 {
			return fmt.Errorf("%d is not a count with an optional Jester bit", v)
		}
		return nil
	case "jester":
		if v != 0 && v != 256 {
			return fmt.Errorf("%d is not 0 or 256", v)
		}
		return nil
	case "slot":
		hi = len(c.g.Slots) - 1
	case "alliance":
		lo, hi = 1, len(c.g.Board.Alliances)
	case "position", "number", "count":
	default:
		return fmt.Errorf("unknown type %q", typ)
	}
	if v < lo || v > hi {
		return fmt.Errorf("%d is outside %s's %d..%d", v, typ, lo, hi)
	}
	return nil
}

// TestEveryTypeIsDefined keeps the type list and the tables in step.
func TestEveryTypeIsDefined(t *testing.T) {
	d := Build()
	known := map[string]bool{}
	for _, ty := range d.Types {
		known[ty.Name] = true
	}
	for _, g := range d.Games {
		for _, list := range [][]Kind{g.Options, g.Events} {
			for _, k := range list {
				if k.Enum == "" {
					t.Errorf("%s kind %d has no .proto enum name", g.Name, k.Kind)
				}
				all := append([]Arg{}, k.Args...)
				for _, cs := range k.Cases {
					all = append(all, cs.Args...)
				}
				for _, a := range all {
					if reserved[a.Name] {
						t.Errorf("%s %s: argument name %q is a keyword in Python or JavaScript", g.Name, k.Enum, a.Name)
					}
					if !known[a.Type] {
						t.Errorf("%s %s: type %q is not in the type list", g.Name, k.Enum, a.Type)
					}
				}
			}
		}
	}
}

// reserved are names an SDK could not offer as attributes (option.from is a syntax
// error in Python).
var reserved = map[string]bool{"from": true, "with": true, "in": true, "is": true, "for": true, "class": true,
	"import": true, "return": true, "pass": true, "global": true, "lambda": true, "as": true, "if": true,
	"else": true, "not": true, "and": true, "or": true, "new": true, "delete": true, "default": true,
	"function": true, "var": true, "this": true, "case": true, "switch": true}
