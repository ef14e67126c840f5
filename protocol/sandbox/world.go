package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// What a bot may read is a list, not the whole host: Landlock (basic and up) allows
// reading only below the folders here, its program (and the folder it came from, see
// programTree) and its scratch directory, and the mount namespace (auto and strict)
// also covers the host's folders of people's and services' files.

// systemDirs hold the system's libraries and interpreters; a missing one is skipped.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// devices a bot may read (it may write /dev/null too).
var devices = []string{"/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// privateEtc are the entries of /etc no bot reads: every other one is there for the
// C library, the dynamic linker and interpreters (ld.so.cache, passwd, nsswitch.conf,
// localtime, python3, ssl). These hold passwords, keys, hosts' identities and
// services' credentials (arena: the ladder's database password, see deploy/).
var privateEtc = map[string]bool{
	"shadow": true, "shadow-": true, "gshadow": true, "gshadow-": true, "sudoers": true, "sudoers.d": true,
	"security": true, "ssh": true, "machine-id": true, "credstore": true, "credstore.encrypted": true,
	"arena": true, "wireguard": true, "NetworkManager": true, "letsencrypt": true, "krb5.keytab": true,
	"ipsec.secrets": true, "ipsec.d": true, "ppp": true, "openvpn": true, "docker": true, "containerd": true,
	"kubernetes": true, "postgresql": true, "mysql": true, "npmrc": true, "pip.conf": true, "gitconfig": true,
	"subuid": true, "subgid": true, "polkit-1": true, "sssd": true,
}

// coveredRoots are the host's folders of people's and services' files (homes,
// temporary files, sockets, state): the bot's mount namespace covers them, so that
// no host file or socket below them is there at all.
var coveredRoots = []string{"/home", "/root", "/tmp", "/run", "/var"}

// readable lists what the bot may read (and run): the system's folders, /etc but its
// private entries, the random and zero devices, its own /proc, the bot's program and
// its tree. read
// is the right below a folder, file the right on a file. Entries of /etc that are
// symbolic links are left out: their targets are allowed, or not, on their own.
func (p *plan) readable(read, file uint64) []allowed {
	out := make([]allowed, 0, 160)
	for _, d := range systemDirs {
		out = append(out, allowed{path: d, access: read})
	}
	for _, d := range devices {
		out = append(out, allowed{path: d, access: file})
	}
	entries, _ := os.ReadDir("/etc")
	for _, e := range entries {
		if privateEtc[e.Name()] || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		access := file
		if e.IsDir() {
			access = read
		}
		out = append(out, allowed{path: "/etc/" + e.Name(), access: access, noFollow: true})
	}
	if p.Proc {
		// A /proc of the bot's own PID namespace shows nothing of the host's; the
		// host's (at basic) shows every process, so it stays closed.
		out = append(out, allowed{path: "/proc", access: read})
	}
	if p.Program != "" {
		out = append(out, allowed{path: p.Program, access: file})
	}
	for _, r := range p.Read {
		access := read
		if st, err := os.Stat(r); err == nil && !st.IsDir() {
			access = file
		}
		out = append(out, allowed{path: r, access: access})
	}
	return out
}

// allowed is one Landlock rule: access below (or to) path; noFollow for a path that
// must not be a symbolic link.
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
