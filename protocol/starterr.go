package protocol

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

// startKind reads go-plugin's error (v1.8 has no typed errors for these).
func startKind(err error) StartKind {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return StartSilent
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Failed to read any lines"):
		return StartExited
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		return StartJunk
	case strings.Contains(msg, "incompatible") || strings.Contains(msg, "Incompatible"):
		return StartVersion
	}
	return StartFailed
}
