package main

import (
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/plugins/builtin"
	"github.com/arena-games/arena/protocol/sandbox"
	"github.com/arena-games/arena/protocol/sandbox/companion"
)

// logHelper says which helper confines the bots (at `--log-level debug`),
// and warns, in one line, of an arena-sandbox beside the arena that is not used. The
// level none has none. At debug it also says which program serves each built-in bot.
func logHelper(log hclog.Logger, level sandbox.Level) {
	if log.IsDebug() {
		for _, name := range builtin.Names() {
			if prog, why := companion.Bot(name); prog != "" {
				log.Debug("built-in bot", "bot", name, "program", prog)
			} else {
				log.Debug("built-in bot", "bot", name, "program", "arena serve-bot", "why", why)
			}
		}
	}
	if level == sandbox.None {
		return
	}
	h, err := companion.Self()
	if err != nil {
		return
	}
	if h.Note != "" {
		log.Warn(h.Note)
	}
	log.Debug("sandbox helper", "command", strings.Join(h.Cmd, " "))
}
