package bot

import (
	"fmt"
	"strings"
)

// StartKind says how a bot process failed to start.
type StartKind uint8

const (
	// StartFailed is any other failure (the go-plugin connection, the dispense).
	StartFailed StartKind = iota
	// StartExited: the process ended before its handshake line.
	StartExited
	// StartSilent: no handshake line before the startup deadline.
	StartSilent
	// StartJunk: the first line on stdout was not a handshake.
	StartJunk
	// StartVersion: a handshake for another protocol version.
	StartVersion
)

// StartError is a bot process that did not start. It is the bot's fault, not the
// configuration's: the arena types it as an ending for the bot's seats.
type StartError struct {
	Kind   StartKind
	Bot    string
	Err    error
	Stderr string // the last line the bot wrote to stderr
}

func (e *StartError) Error() string {
	msg := fmt.Sprintf("bot %s did not start: %s", e.Bot, Printable(strings.ReplaceAll(strings.TrimSpace(e.Err.Error()), "\n", "; ")))
	if e.Stderr != "" {
		msg += fmt.Sprintf(" (its stderr ends: %q)", e.Stderr)
	}
	return msg
}

func (e *StartError) Unwrap() error { return e.Err }
