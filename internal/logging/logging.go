// Package logging builds the arena's one logger: an hclog.Logger (go-plugin's own,
// which the arena used first) made once in main from --log-level and --log-format and
// passed down, and a log/slog view of it for the libraries that speak slog (River,
// the web service).
//
// The slog view is our own small handler: hclog v1.6.3, the newest release, offers an
// io.Writer and a *log.Logger adapter (StandardWriter, StandardLogger) but no
// slog.Handler, and going through its writer would turn slog's levels and attributes
// into text hclog then guesses at.
package logging

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// Formats are the values of --log-format.
var formats = []string{"text", "json"}

// Levels are the values of --log-level, quietest last.
var levels = []string{"trace", "debug", "info", "warn", "error", "off"}

// Formats lists the values --log-format takes.
func Formats() []string { return append([]string(nil), formats...) }

// Levels lists the values --log-level takes.
func Levels() []string { return append([]string(nil), levels...) }

// New is the logger named name writing to w at level ("info", "debug"...) in format
// ("text" or "json": one JSON object per line). An unknown level or format is an
// error naming the flag and what it takes.
func New(w io.Writer, name, level, format string) (hclog.Logger, error) {
	lv := hclog.LevelFromString(level)
	if lv == hclog.NoLevel {
		return nil, fmt.Errorf("--log-level %q: want one of %s", level, strings.Join(levels, ", "))
	}
	var json bool
	switch format {
	case "text":
	case "json":
		json = true
	default:
		return nil, fmt.Errorf("--log-format %q: want one of %s", format, strings.Join(formats, ", "))
	}
	return hclog.New(&hclog.LoggerOptions{Name: name, Level: lv, Output: w, JSONFormat: json}), nil
}
