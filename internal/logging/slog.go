package logging

import (
	"context"
	"log/slog"

	"github.com/hashicorp/go-hclog"
)

// Slog is l seen as a *slog.Logger: its records reach l at the matching level (below
// slog's Debug as Trace), with their attributes as l's key-value pairs; a group's keys
// are prefixed with its name and a dot, as slog's own text handler writes them.
func Slog(l hclog.Logger) *slog.Logger { return slog.New(&handler{l: l}) }

// Quieter is Slog for a library whose Info lines are its own housekeeping (River logs
// each client start and stop, and its job counts every few seconds): they reach l at
// Debug; its warnings and errors stay what they are.
func Quieter(l hclog.Logger) *slog.Logger { return slog.New(&handler{l: l, quieter: true}) }

type handler struct {
	l       hclog.Logger
	prefix  string // the open groups' names, each followed by a dot
	quieter bool
}

// level is where a record of slog level lv goes.
func (h *handler) level(lv slog.Level) hclog.Level {
	switch {
	case lv < slog.LevelDebug:
		return hclog.Trace
	case lv < slog.LevelInfo:
		return hclog.Debug
	case lv < slog.LevelWarn && h.quieter:
		return hclog.Debug
	case lv < slog.LevelWarn:
		return hclog.Info
	case lv < slog.LevelError:
		return hclog.Warn
	}
	return hclog.Error
}

func (h *handler) Enabled(_ context.Context, lv slog.Level) bool {
	switch h.level(lv) {
	case hclog.Trace:
		return h.l.IsTrace()
	case hclog.Debug:
		return h.l.IsDebug()
	case hclog.Info:
		return h.l.IsInfo()
	case hclog.Warn:
		return h.l.IsWarn()
	}
	return h.l.IsError()
}

func (h *handler) Handle(_ context.Context, r slog.Record) error {
	args := make([]any, 0, 2*r.NumAttrs())
	r.Attrs(func(a slog.Attr) bool {
		args = appendAttr(args, h.prefix, a)
		return true
	})
	h.l.Log(h.level(r.Level), r.Message, args...)
	return nil
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	var args []any
	for _, a := range attrs {
		args = appendAttr(args, h.prefix, a)
	}
	return &handler{l: h.l.With(args...), prefix: h.prefix, quieter: h.quieter}
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &handler{l: h.l, prefix: h.prefix + name + ".", quieter: h.quieter}
}

// appendAttr appends a as hclog's key and value, a group's members one by one.
func appendAttr(args []any, prefix string, a slog.Attr) []any {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, m := range v.Group() {
			args = appendAttr(args, prefix, m)
		}
		return args
	}
	if a.Equal(slog.Attr{}) {
		return args // slog's handlers drop an empty attribute
	}
	return append(args, prefix+a.Key, v.Any())
}
