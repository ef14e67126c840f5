package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-games/arena/arena"
)

// stderrKeeper holds the bots' stderr of a run without replays in a temporary folder:
// kept and named when something went wrong (an error, a seat that did not end ok, a
// restart), removed otherwise.
type stderrKeeper struct{ dir string }

func newStderrKeeper(cfg *arena.Config) (*stderrKeeper, error) {
	if cfg.ReplayDir != "" {
		return &stderrKeeper{}, nil
	}
	dir, err := os.MkdirTemp("", "arena-stderr-")
	if err != nil {
		return nil, err
	}
	cfg.StderrDir = dir
	return &stderrKeeper{dir: dir}, nil
}

// finish keeps the folder and says where it is when the run failed or a seat forfeited.
func (k *stderrKeeper) finish(rep *arena.Report, runErr error, w io.Writer) {
	if k.dir == "" {
		return
	}
	entries, _ := os.ReadDir(k.dir)
	if len(entries) > 0 && (runErr != nil || !allOK(rep)) {
		fmt.Fprintf(w, "the bots' stderr is kept in %s\n", k.dir)
		return
	}
	_ = os.RemoveAll(k.dir)
}

func allOK(rep *arena.Report) bool {
	if rep == nil {
		return false
	}
	for _, b := range rep.Bots {
		if b.Endings["ok"] != b.Games || b.Restarts > 0 {
			return false
		}
	}
	return true
}

// readStderrTail is the last lines of the first entrant's stderr file in dir (the bot
// under check is entrant 0).
func readStderrTail(dir string, lines int) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "stderr-0-*.log"))
	if len(matches) == 0 {
		return ""
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		return ""
	}
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// quote prints a bot's own words under a failed check, indented.
func (k *checker) quote(what, text string) {
	if text == "" {
		return
	}
	fmt.Fprintf(k.w, "      %s:\n", what)
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(k.w, "        %s\n", l)
	}
}
