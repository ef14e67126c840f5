package main

import (
	"debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// Companion programs. Each bot is started through the sandbox's helper, and a built-in
// bot is a program too; the arena can be both (`arena sandbox-exec`, `arena serve-bot`),
// but it is a large program whose start (its packages' initialisation above all) is
// most of a match's start. Two small programs of the same build do the same jobs with
// the same code: arena-sandbox (package sandbox only) and arena-bot (the built-in bots,
// the games and the SDK). The arena uses them when they lie beside its own executable,
// where the README's build command puts them, and are of the same build; otherwise it
// is its own helper and serves its own built-in bots, as `go run ./cmd/arena` does.
const (
	helperProgram = "arena-sandbox"
	botProgram    = "arena-bot"
	// serveBotArg is the command that serves a built-in bot, in the arena and in
	// arena-bot alike.
	serveBotArg = "serve-bot"
)

// programs are the commands the arena starts for its bots.
type programs struct {
	// helper is the sandbox's helper command; bot the program that serves a
	// built-in bot (with serveBotArg and the bot's name).
	helper []string
	bot    string
	// notes say why a program found beside the arena was not used (one line each).
	notes []string
}

// builtin is the launch of the built-in bot name (its name already checked).
func (p programs) builtin(name string) protocol.LaunchConfig {
	return protocol.LaunchConfig{Path: p.bot, Args: []string{serveBotArg, name}}
}

// botPrograms finds the programs, once per process.
var botPrograms = sync.OnceValues(func() (programs, error) {
	exe, err := os.Executable()
	if err != nil {
		return programs{}, err
	}
	return findPrograms(exe), nil
})

// logPrograms says which programs start the bots (at info level: `--log-level info`),
// and warns of a program beside the arena that is not used, with the reason.
func logPrograms(log hclog.Logger) {
	p, err := botPrograms()
	if err != nil {
		return
	}
	for _, n := range p.notes {
		log.Warn(n)
	}
	log.Info("bot programs", "sandbox helper", strings.Join(p.helper, " "), "built-in bots", p.bot)
}

// findPrograms looks for the companions beside exe, itself the fallback for both.
func findPrograms(exe string) programs {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	p := programs{helper: []string{exe, sandbox.HelperArg}, bot: exe}
	ours, ok := debug.ReadBuildInfo()
	if !ok {
		return p
	}
	if path, note := companion(exe, helperProgram, ours); path != "" {
		p.helper = []string{path, sandbox.HelperArg}
	} else if note != "" {
		p.notes = append(p.notes, note+"; the arena is its own sandbox helper")
	}
	if path, note := companion(exe, botProgram, ours); path != "" {
		p.bot = path
	} else if note != "" {
		p.notes = append(p.notes, note+"; the arena serves its built-in bots itself")
	}
	return p
}

// companion returns the program name beside the arena at exe if it is of the arena's
// build, else "" and why not ("" too when there is no such file).
func companion(exe, name string, ours *debug.BuildInfo) (string, string) {
	file := filepath.Join(filepath.Dir(exe), name)
	st, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ""
	}
	if err != nil {
		return "", err.Error()
	}
	self, err := os.Stat(exe)
	if err != nil {
		return "", err.Error()
	}
	// Whoever may change it could run code as the arena's bots' confiner: it must be
	// no easier to change than the arena itself.
	if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return "", file + " is not an executable file"
	}
	if owner(st) != owner(self) || st.Mode().Perm()&0o022&^self.Mode().Perm() != 0 {
		return "", file + " has another owner than the arena, or more may write it"
	}
	theirs, err := buildinfo.ReadFile(file)
	if err != nil {
		return "", fmt.Sprintf("%s is not a Go program (%v)", file, err)
	}
	if why := sameBuild(ours, theirs, path.Join(path.Dir(ours.Path), name)); why != "" {
		return "", fmt.Sprintf("%s is not of this build of the arena (%s): build them together, go build -o %s/ ./cmd/...", file, why, filepath.Dir(file))
	}
	return file, ""
}

// sameBuild says how theirs differs from a program of ours's build at package want:
// its package, module, toolchain, build settings (version control among them, when
// stamped) and the versions of the modules both use. Code changed without a commit is
// not seen here: the sandbox's helper checks its code against the arena's plan itself,
// and a built-in bot's program speaks the protocol version of its build (checked at
// the handshake).
func sameBuild(ours, theirs *buildinfo.BuildInfo, want string) string {
	switch {
	case theirs.Path != want:
		return "it is " + theirs.Path + ", not " + want
	case theirs.Main.Path != ours.Main.Path || theirs.Main.Version != ours.Main.Version || theirs.Main.Sum != ours.Main.Sum:
		return "module " + theirs.Main.Path + " " + theirs.Main.Version
	case theirs.GoVersion != ours.GoVersion:
		return "built with " + theirs.GoVersion + ", the arena with " + ours.GoVersion
	}
	settings := map[string]string{}
	for _, s := range ours.Settings {
		settings[s.Key] = s.Value
	}
	for _, s := range theirs.Settings {
		if v, ok := settings[s.Key]; !ok || v != s.Value {
			return "build setting " + s.Key + "=" + s.Value
		}
		delete(settings, s.Key)
	}
	for k, v := range settings {
		return "build setting " + k + "=" + v + " is not in it"
	}
	deps := map[string]string{}
	for _, d := range ours.Deps {
		deps[d.Path] = d.Version + " " + d.Sum
	}
	for _, d := range theirs.Deps {
		if v, ok := deps[d.Path]; ok && v != d.Version+" "+d.Sum {
			return "module " + d.Path + " " + d.Version
		}
	}
	return ""
}

// owner is a file's owner's user id.
func owner(st fs.FileInfo) uint32 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Uid
	}
	return 0
}
