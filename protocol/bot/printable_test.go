package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrintableDefusesTerminalEscapes(t *testing.T) {
	cases := map[string]string{
		"plain text, ünïcode too":        "plain text, ünïcode too",
		"\x1b[2J\x1b[31mred":             `\x1b[2J\x1b[31mred`,
		"line\nbreak\rreturn\tand tab":   `line\nbreak\rreturn\tand tab`,
		"c1 csi \u009b31m":               `c1 csi \u009b31m`,
		"bidi \u202eevil":                `bidi \u202eevil`,
		"bad utf-8 \xff\xfe":             `bad utf-8 \xff\xfe`,
		`a bot's own \x1b stays visible`: `a bot's own \\x1b stays visible`,
		"bell\a and nul\x00":             `bell\a and nul\x00`,
	}
	for in, want := range cases {
		got := Printable(in)
		assert.Equal(t, want, got, "%q", in)
		for _, r := range got {
			assert.True(t, r >= ' ' && r != 0x7f, "%q keeps a control character", got)
		}
	}
}
