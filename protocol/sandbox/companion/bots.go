package companion

import (
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/arena-games/arena/internal/fileid"
)

// A built-in bot (random, heuristic, ismcts) is served by the arena's own program
// (`arena serve-bot NAME`) unless its own program (cmd/bots/NAME) lies beside the
// arena, built from the same commit of a clean tree. Its own program runs a fraction
// of the arena's package initialisations and starts on about 0.7 of its CPU, and its
// decisions take the same time (docs/performance.md, "The start, measured in CPU").
//
// The test is stricter than the helper's. Build information names the commit but not
// the changes made to it since: two builds of a modified tree would look alike, and a
// bot of other code would play under the built-in's name on a ladder. The helper's
// code is checked by its digest; a bot's code has no such digest, so both programs
// must be of an unmodified commit (vcs.modified=false), and the same one.

// Bot returns the program of the built-in bot name beside the running arena when it
// may serve as that bot, else "" and why not ("" when there is none). The arena's
// build information is read once per process, a program's once per file identity.
func Bot(name string) (string, string) {
	exe, ours := own()
	return botOnce(exe, name, ours)
}

// botOnce is BotFor, asked again only when the file beside the arena changed.
func botOnce(exe, name string, ours *debug.BuildInfo) (string, string) {
	if ours == nil {
		return "", "the arena has no build information"
	}
	if cleanBuild(ours) != "" {
		return BotFor(exe, name, ours) // a development build: it says so, and reads no file
	}
	file := filepath.Join(filepath.Dir(exe), name)
	id, err := fileid.Of(file)
	if err != nil {
		return BotFor(exe, name, ours) // none there, or unreadable: says why
	}
	if c, ok := botChoices.Load(file); ok && c.(botChoice).id == id {
		return c.(botChoice).file, c.(botChoice).note
	}
	prog, note := BotFor(exe, name, ours)
	botChoices.Store(file, botChoice{id: id, file: prog, note: note})
	return prog, note
}

// botChoice is Bot's answer for a file identity.
type botChoice struct{ id, file, note string }

// botChoices maps a program's path to its last botChoice.
var botChoices sync.Map

// own is the running arena's executable (links resolved) and its build information
// (nil when it has none).
var own = sync.OnceValues(func() (string, *debug.BuildInfo) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	ours, ok := debug.ReadBuildInfo()
	if !ok {
		return exe, nil
	}
	return exe, ours
})

// BotFor is Bot for an arena at exe of build ours: the program beside it that is
// cmd/bots/NAME of ours's module, built with the same settings from the same commit
// of an unmodified tree, else "" and why not.
func BotFor(exe, name string, ours *debug.BuildInfo) (string, string) {
	if why := cleanBuild(ours); why != "" {
		return "", "the arena is " + why + ": it serves its built-in bots itself"
	}
	file, theirs, note := beside(exe, name)
	if theirs == nil {
		return "", note
	}
	why := sameBuild(ours, theirs, path.Join(path.Dir(ours.Path), "bots", name))
	if why == "" {
		// The same settings as ours, so of the same clean commit: checked again in
		// case sameBuild ever compares less.
		if why = cleanBuild(theirs); why != "" {
			why = "it is " + why
		}
	}
	if why != "" {
		return "", notOfThisBuild(file, why)
	}
	return file, ""
}

// cleanBuild says how a build is not of a commit of an unmodified tree ("" when it is).
func cleanBuild(b *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range b.Settings {
		settings[s.Key] = s.Value
	}
	switch {
	case settings["vcs.revision"] == "":
		return "built without version control information"
	case settings["vcs.modified"] != "false":
		return "built from a modified tree"
	}
	return ""
}
