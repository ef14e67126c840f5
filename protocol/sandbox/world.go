package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// What a bot may read is a list, not the whole host: Landlock (basic and up) allows
// reading only below the folders here, its program (and the folder it came from, see
// programTree) and its scratch directory, and the mount namespace (auto and strict)
// also covers the host's folders of people's and services' files.

// systemDirs hold the system's libraries and interpreters (where /usr is merged, the
// others are symbolic links into it, and need no rule).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// devices a bot may read (it may write /dev/null too).
var devices = []string{"/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// etcFiles and etcPrefixes are the entries of /etc a bot may read: what the C library,
// the dynamic linker and interpreters read (users and groups for a name, the name
// service's settings, the time zone, certificates, an interpreter's own folder, named
// with its version). Every other entry stays closed: shadow, ssh's keys, services'
// credentials (the ladder's own /etc/arena holds its database password), tokens in
// gitconfig or npmrc. A list of what is open, not of what is closed, since Landlock
// only allows; and a short one, since every rule is made again at every bot's start
// (BenchmarkLandlockRuleset: the whole of /etc, one rule an entry, cost a start
// milliseconds on a loaded machine).
var (
	etcFiles = map[string]bool{"ld.so.cache": true, "ld.so.conf": true, "ld.so.conf.d": true, "ld.so.preload": true,
		"passwd": true, "group": true, "nsswitch.conf": true, "host.conf": true, "hosts": true, "resolv.conf": true,
		"gai.conf": true, "services": true, "protocols": true, "localtime": true, "timezone": true, "ssl": true,
		"ca-certificates": true, "ca-certificates.conf": true, "mime.types": true, "os-release": true,
		"debian_version": true, "locale.alias": true, "locale.conf": true}
	etcPrefixes = []string{"python", "java", "perl", "ruby", "php", "node"}
)

// etcReadable reports whether a bot may read the entry of /etc named name.
func etcReadable(name string) bool {
	return etcFiles[name] || slices.ContainsFunc(etcPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// coveredRoots are the host's folders of people's and services' files (homes,
// temporary files, sockets, state): the bot's mount namespace covers them, so that
// no host file or socket below them is there at all.
var coveredRoots = []string{"/home", "/root", "/tmp", "/run", "/var"}

// systemReadable is the part of the read list that is the same for every bot: the
// system's folders, the devices and the entries of /etc it needs, as this machine has
// them. Found once by the arena, so that a bot's start neither lists /etc nor opens a
// path that is missing or a symbolic link (its target is allowed, or not, on its own).
var systemReadable = sync.OnceValue(func() []string {
	var out []string
	keep := func(path string) {
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink == 0 {
			out = append(out, path)
		}
	}
	for _, p := range append(slices.Clone(systemDirs), devices...) {
		keep(p)
	}
	entries, _ := os.ReadDir("/etc")
	for _, e := range entries {
		if etcReadable(e.Name()) {
			keep("/etc/" + e.Name())
		}
	}
	return out
})

// readable lists what the bot may read (and run): the system's part (systemReadable),
// its own /proc, its program and the folders of Read. read is the right below a
// folder (addRule narrows it for a file).
func (p *plan) readable(read uint64) []allowed {
	out := make([]allowed, 0, len(p.System)+len(p.Read)+2)
	for _, s := range p.System {
		out = append(out, allowed{path: s, access: read, noFollow: true})
	}
	if p.Proc {
		// A /proc of the bot's own PID namespace shows nothing of the host's; the
		// host's (at basic) shows every process, so it stays closed.
		out = append(out, allowed{path: "/proc", access: read})
	}
	if p.Program != "" {
		out = append(out, allowed{path: p.Program, access: read})
	}
	for _, r := range p.Read {
		out = append(out, allowed{path: r, access: read})
	}
	return out
}

// allowed is one Landlock rule: access below (or to) path; noFollow for a path that
// is skipped when it is a symbolic link.
type allowed struct {
	path     string
	access   uint64
	noFollow bool
}

// open opens the rule's path for landlock_add_rule. A path that is not there, or that
// the bot's own user may not reach (Landlock comes after the change of user), needs
// no rule: -1.
func (a allowed) open() (int, error) {
	flags := unix.O_PATH | unix.O_CLOEXEC
	if a.noFollow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(a.path, flags, 0)
	if err == unix.ENOENT || err == unix.EACCES {
		return -1, nil
	}
	return fd, err
}

// readAndHide takes Config.Hide and Config.Read, made absolute and real, and refuses
// a folder to read that holds what bots must not see (or lies in it).
func (b *Box) readAndHide(c Config) error {
	var err error
	if b.hide, err = hidden(c.Hide); err != nil {
		return err
	}
	if b.read, err = hidden(c.Read); err != nil {
		return err
	}
	for _, r := range b.read {
		for _, h := range append([]string{b.root}, b.hide...) {
			if within(r, h) || within(h, r) {
				return fmt.Errorf("sandbox: bots are to read %s, but it holds or lies in %s, which they must not see", r, h)
			}
		}
	}
	return nil
}

// programTree is the folder a bot may read beside its program, so that a script finds
// its modules and data: the top of the checkout the program is in (the nearest folder
// above it that holds .git), else the program's own folder. A folder that holds or
// lies in what the bot must not see (a hidden path such as the ladder's store, the
// scratch root of every bot), or that is a host folder the mount view covers or a
// person's home as a whole, is not given: then the bot reads its program alone.
func programTree(program string, hide []string, scratchRoot string) string {
	dir := filepath.Dir(program)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for _, c := range []string{checkoutTop(dir), dir} {
		if c != "" && treeAllowed(c, hide, scratchRoot) {
			return c
		}
	}
	return ""
}

// checkoutTop is the nearest folder at or above dir that holds .git, "" if none.
func checkoutTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

func treeAllowed(tree string, hide []string, scratchRoot string) bool {
	for _, h := range append([]string{scratchRoot}, hide...) {
		if within(tree, h) || within(h, tree) {
			return false
		}
	}
	// Below a covered folder is fine (the mount view binds the tree back); the folder
	// itself, or one above it, is the host's.
	for _, c := range coveredRoots {
		if within(c, tree) {
			return false
		}
	}
	// A home as a whole (its keys, its history) is no bot's folder.
	return filepath.Dir(tree) != "/home"
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
