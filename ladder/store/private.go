package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A ladder's files are its owner's alone: the database (every game, and in a shared
// ladder every program), the stored programs and the replays (every seat's hidden
// cards). Bots run on the same machine, at the basic level as users of their own when
// the arena is root, and a file's mode is then what keeps one out. An older ladder
// made them open to all (0644 files in 0755 folders); opening it tightens what it finds.

// PrivateDir makes dir, and its missing parents, a folder only its owner may enter,
// and takes the rights of group and others from it when an older ladder left them.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return tighten(dir)
}

// tighten takes the rights of group and others from path, when it is there and is
// this user's (a ladder of another user, opened to read, is not ours to change).
func tighten(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(path, st.Mode().Perm()&^0o077); err != nil && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	return nil
}

// tightenData tightens what a ladder keeps in dir beside its database: the stored (or
// fetched) programs and the replays.
func tightenData(dir string) error {
	for _, sub := range []string{"bots", "replays"} {
		if err := tighten(filepath.Join(dir, sub)); err != nil {
			return fmt.Errorf("ladder data %s: %w", dir, err)
		}
	}
	return nil
}

// tightenCache tightens a shared ladder's local cache, a folder of the ladder's own
// (DefaultCacheDir), and the programs and replays in it.
func tightenCache(dir string) error {
	if dir == "" {
		return nil
	}
	if err := tighten(dir); err != nil {
		return fmt.Errorf("ladder cache %s: %w", dir, err)
	}
	return tightenData(dir)
}

// createDatabase creates the SQLite file at path owner-only when it is missing:
// SQLite would make it 0644, and its journal files take its mode.
func createDatabase(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// tightenDatabase tightens the SQLite file at path, its journal and lock files, and
// the ladder's data beside it, where an older ladder left them open.
func tightenDatabase(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		if err := tighten(p); err != nil {
			return err
		}
	}
	return tightenData(filepath.Dir(path))
}
