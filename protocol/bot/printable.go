package bot

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable makes text a bot controls (its status messages, its stderr, errors that
// quote what it sent) safe to show on a terminal: every rune that is not printable
// (control characters, ANSI escape sequences' ESC and CSI, bidirectional overrides,
// invalid UTF-8) is written as a Go escape (\x1b, \u202e), so that it shows and does
// nothing. Backslashes are doubled, so an escape a bot wrote itself cannot pass for
// one of these.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || !unicode.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\\':
			b.WriteString(`\\`)
		case unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
