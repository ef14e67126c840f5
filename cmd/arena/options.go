package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/engine"
)

// gameOptionFlags are one flag per option some registered game takes (--board,
// --deck). Each names a file; its text is the option's value (engine.Options), so the
// replays, the ladder and the bots get the file's contents, not a path.
func gameOptionFlags() []cli.Flag {
	var flags []cli.Flag
	for _, name := range optionNames() {
		var uses []string
		for _, g := range engine.Names() {
			for _, o := range engine.OptionsOf(g) {
				if o.Name == name {
					uses = append(uses, g+": "+o.Usage)
				}
			}
		}
		flags = append(flags, &cli.StringFlag{Name: name, TakesFile: true, Usage: strings.Join(uses, "; ") + " (a file)"})
	}
	return flags
}

// optionNames lists every option name of every registered game, once each, in order.
func optionNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, g := range engine.Names() {
		for _, o := range engine.OptionsOf(g) {
			if !seen[o.Name] {
				seen[o.Name] = true
				names = append(names, o.Name)
			}
		}
	}
	return names
}

// gameOptions reads the option flags given on the command line for game and checks
// them with the game: an option the game does not take, a file that cannot be read or
// does not parse is an error that names the flag and the file.
func gameOptions(c *cli.Context, game string) (engine.Options, error) {
	if _, err := engine.Lookup(game); err != nil {
		return nil, err
	}
	var opts engine.Options
	var given []string
	for _, name := range optionNames() {
		path := c.String(name)
		if !c.IsSet(name) {
			continue
		}
		if err := engine.CheckOption(game, name); err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err) // before reading: the file is not the problem
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err)
		}
		if opts == nil {
			opts = engine.Options{}
		}
		opts[name] = string(text)
		given = append(given, fmt.Sprintf("--%s %s", name, path))
	}
	if _, err := engine.PrepareGame(game, opts); err != nil {
		if len(given) > 0 {
			return nil, fmt.Errorf("%s: %w", strings.Join(given, ", "), err)
		}
		return nil, err
	}
	return opts, nil
}
