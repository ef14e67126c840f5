// Package companion finds the sandbox's helper program. Each bot is started through
// a helper: it confines itself and then execs the bot. The arena can be its own
// helper (`arena sandbox-exec`), but it is a large program whose start (its packages'
// initialisation above all) is a good part of a match's start, paid once per bot. The
// arena-sandbox program does the same with the same code (sandbox.RunHelper) and
// imports nothing else. The arena uses it when it lies beside its own executable,
// where the README's build command puts it, and is of the same build; otherwise it is
// its own helper, as `go run ./cmd/arena` is.
//
// The built-in bots' own programs (cmd/bots/NAME) are found beside the arena the same
// way, with a stricter test of their build (bots.go).
package companion

import (
	"context"
	"debug/buildinfo"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arena-games/arena/protocol/sandbox"
)

// Program is the helper's program name, beside the arena's.
const Program = "arena-sandbox"

// Found is the sandbox's helper command, and why a program found beside the arena
// was not used ("" when it was, or when there is none).
type Found struct {
	Cmd  []string
	Note string
}

// Self is the helper of the running program, found once per process.
func Self() (Found, error) { return self() }

var self = sync.OnceValues(func() (Found, error) {
	exe, err := os.Executable()
	if err != nil {
		return Found{}, err
	}
	return Find(exe), nil
})

// Find looks for Program beside exe, exe itself the fallback.
func Find(exe string) Found {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	own := Found{Cmd: []string{exe, sandbox.HelperArg}}
	ours, ok := debug.ReadBuildInfo()
	if !ok {
		return own
	}
	path, note := companion(exe, Program, ours)
	if path == "" {
		if note != "" {
			own.Note = note + "; the arena is its own sandbox helper"
		}
		return own
	}
	return Found{Cmd: []string{path, sandbox.HelperArg}}
}

// companion returns the program name beside the arena at exe if it is of the arena's
// build, else "" and why not ("" too when there is no such file).
func companion(exe, name string, ours *debug.BuildInfo) (string, string) {
	file, theirs, note := beside(exe, name)
	if theirs == nil {
		return "", note
	}
	why := sameBuild(ours, theirs, path.Join(path.Dir(ours.Path), name))
	if why == "" {
		why = sameSandboxCodeOnce(file, helperCacheFile())
	}
	if why != "" {
		return "", notOfThisBuild(file, why)
	}
	return file, ""
}

// beside returns the program name beside the arena at exe and its build information,
// or nil and why it may not be used ("" when there is no such file).
func beside(exe, name string) (string, *buildinfo.BuildInfo, string) {
	file := filepath.Join(filepath.Dir(exe), name)
	st, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return file, nil, ""
	}
	if err != nil {
		return file, nil, err.Error()
	}
	self, err := os.Stat(exe)
	if err != nil {
		return file, nil, err.Error()
	}
	// Whoever may change it could run code as the arena's bots' confiner (or play as
	// its built-in bots): it must be no easier to change than the arena itself.
	if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return file, nil, file + " is not an executable file"
	}
	if owner(st) != owner(self) || st.Mode().Perm()&0o022&^self.Mode().Perm() != 0 {
		return file, nil, file + " has another owner than the arena, or more may write it"
	}
	theirs, err := buildinfo.ReadFile(file)
	if err != nil {
		return file, nil, fmt.Sprintf("%s is not a Go program (%v)", file, err)
	}
	return file, theirs, ""
}

// notOfThisBuild is the note on a program beside the arena of another build.
func notOfThisBuild(file, why string) string {
	return fmt.Sprintf("%s is not of this build of the arena (%s): build them together, go build -o %s/ ./cmd/...", file, why, filepath.Dir(file))
}

// digestTimeout bounds the helper program's answer: it starts in a few milliseconds,
// and in well under a second at a load of 16 on 2 cores.
const digestTimeout = 5 * time.Second

// sameSandboxCode asks the helper program for the digest of its sandbox code and says
// how it differs from this program's. Build information cannot tell two builds of an
// uncommitted tree apart, and a helper of other code refuses every plan of this arena
// (so every bot would fail to start): better found once, here.
func sameSandboxCode(file string) string {
	ctx, cancel := context.WithTimeout(context.Background(), digestTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, file, "digest").Output()
	if err != nil {
		return fmt.Sprintf("it gives no digest of its sandbox code: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != sandbox.CodeDigest() {
		return fmt.Sprintf("its sandbox code is %q, the arena's %s", got, sandbox.CodeDigest())
	}
	return ""
}

// sameBuild says how theirs differs from a program of ours's build at package want:
// its package, module, toolchain, build settings (version control among them, when
// stamped) and the versions of the modules both use. Code changed without a commit is
// not seen here: the helper checks its code against the arena's plan itself.
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
	delete(settings, profileSetting)
	for _, s := range theirs.Settings {
		if s.Key == profileSetting {
			continue
		}
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

// profileSetting is the build setting naming the profile that guided the compiler
// (a main package's default.pgo, as cmd/bots/ismcts has): each program names its own,
// and a profile changes what the compiler inlines and lays out, not what the program
// does, so it is no difference of build.
const profileSetting = "-pgo"

// owner is a file's owner's user id.
func owner(st fs.FileInfo) uint32 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Uid
	}
	return 0
}
