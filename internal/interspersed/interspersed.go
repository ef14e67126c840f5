// Package interspersed lets a command's flags follow its arguments (`arena match a b
// --games 10`, `arena bot add PATH --name NAME`) under urfave/cli/v2, which parses as
// Go's flag package does: flags stop at the first argument, and later ones would be
// taken as arguments. urfave/cli v3 parses flags anywhere, but moving to it changes
// every command's code; github.com/spf13/pflag (SetInterspersed) is another flag
// package altogether. Until the move, Reorder puts a command line's flags first.
package interspersed

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Reorder returns args (os.Args: the program, then the command line) with the flags
// of the command they run, or of its subcommand, moved before its arguments, and the
// arguments after "--" so that none is read as a flag. A flag's value goes with it
// (a flag that is not a cli.BoolFlag takes the next word unless written --f=v); words
// after a "--" stay arguments. A command that parses no flags (SkipFlagParsing), an
// unknown command and a parent command without a known subcommand are left as they
// are.
func Reorder(app *cli.App, args []string) []string {
	cmd, head := command(app.Commands, args, 1)
	if cmd == nil || cmd.SkipFlagParsing {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[head:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if takesValue[name] && i+1 < len(rest) {
				flags = append(flags, rest[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append(append([]string{}, args[:head]...), flags...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out
}

// command finds the command args[at] names among cmds, descending into its
// subcommands; it returns nil for none or for a parent without a subcommand named, and
// the index of the first word after the command.
func command(cmds []*cli.Command, args []string, at int) (*cli.Command, int) {
	if at >= len(args) {
		return nil, 0
	}
	for _, c := range cmds {
		if !c.HasName(args[at]) {
			continue
		}
		if len(c.Subcommands) > 0 {
			return command(c.Subcommands, args, at+1)
		}
		return c, at + 1
	}
	return nil, 0
}
