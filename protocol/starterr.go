//go:build linux

package protocol

import (
	"strings"

	"github.com/arena-games/arena/protocol/bot"
)

// The start failures are package bot's; these names keep the protocol's callers short.
type (
	StartKind  = bot.StartKind
	StartError = bot.StartError
)

const (
	StartFailed  = bot.StartFailed
	StartExited  = bot.StartExited
	StartSilent  = bot.StartSilent
	StartJunk    = bot.StartJunk
	StartVersion = bot.StartVersion
)

// Printable makes text a bot controls safe to show on a terminal (see bot.Printable).
func Printable(s string) string { return bot.Printable(s) }

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
