package interspersed

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/urfave/cli/v2"
)

func app() *cli.App {
	return &cli.App{Commands: []*cli.Command{
		{Name: "match", Flags: []cli.Flag{&cli.IntFlag{Name: "games", Aliases: []string{"n"}}, &cli.BoolFlag{Name: "json"}}},
		{Name: "bot", Subcommands: []*cli.Command{{Name: "add", Flags: []cli.Flag{&cli.StringFlag{Name: "name"}}}}},
		{Name: "sandbox-exec", SkipFlagParsing: true},
	}}
}

func TestReorderPutsFlagsFirst(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"arena", "match", "a", "b", "--games", "10", "--json"}, []string{"arena", "match", "--games", "10", "--json", "--", "a", "b"}},
		{[]string{"arena", "match", "a", "-n", "4", "b"}, []string{"arena", "match", "-n", "4", "--", "a", "b"}},
		{[]string{"arena", "match", "a", "--games=3", "b"}, []string{"arena", "match", "--games=3", "--", "a", "b"}},
		{[]string{"arena", "match", "--json", "a", "--", "--games"}, []string{"arena", "match", "--json", "--", "a", "--games"}},
		{[]string{"arena", "match", "--games"}, []string{"arena", "match", "--games"}},
		{[]string{"arena", "bot", "add", "PATH", "--name", "x"}, []string{"arena", "bot", "add", "--name", "x", "--", "PATH"}},
		{[]string{"arena", "bot", "list", "--name", "x"}, []string{"arena", "bot", "list", "--name", "x"}},
		{[]string{"arena", "sandbox-exec", "--", "bot", "--flag"}, []string{"arena", "sandbox-exec", "--", "bot", "--flag"}},
		{[]string{"arena", "chess", "a", "--x"}, []string{"arena", "chess", "a", "--x"}},
		{[]string{"arena"}, []string{"arena"}},
	} {
		assert.Equal(t, c.want, Reorder(app(), c.in), "%q", c.in)
	}
}
