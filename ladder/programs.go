package ladder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// fetchTimeout bounds the download of one bot program from the database.
const fetchTimeout = 5 * time.Minute

// Launch is the launcher for st's bots. For a store that keeps bot programs itself
// (store.Programs: a database shared by many machines), a submitted bot's program is
// fetched on first use into st.Dir()/bots/SHA256, a local cache, and fetched again if
// the cached copy no longer matches its digest; every launch then checks the digest
// as StoreLauncher does. For the SQLite store the programs are the files of its
// directory already.
func Launch(st store.Store, builtin func(name string) (protocol.LaunchConfig, error)) Launcher {
	check := StoreLauncher(st.Dir(), builtin)
	progs, ok := st.(store.Programs)
	if !ok {
		return check
	}
	return func(b store.Bot) (protocol.LaunchConfig, error) {
		if b.Builtin == "" {
			if err := fetch(progs, st.Dir(), b); err != nil {
				return protocol.LaunchConfig{}, fmt.Errorf("bot %s: %w", label(b), err)
			}
		}
		return check(b)
	}
}

// fetch makes dir/b.Path a verified copy of b's program, downloading it unless the
// file there already has the digest. A half-written or wrong download never carries
// the digest's name: it is written beside it and renamed once verified.
func fetch(progs store.Programs, dir string, b store.Bot) error {
	path := filepath.Join(dir, b.Path)
	if sum, err := fileSHA256(path); err == nil && sum == b.SHA256 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	content, err := progs.Program(ctx, b.SHA256)
	if err != nil {
		return err
	}
	if sum := store.SHA256Hex(content); sum != b.SHA256 {
		return fmt.Errorf("the database's program has SHA-256 %.12s, not the %.12s it was added with", sum, b.SHA256)
	}
	if err := store.PrivateDir(filepath.Dir(path)); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fetch-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o555); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// putProgram stores the program at dir/rel in st when st keeps programs itself.
func putProgram(ctx context.Context, st store.Store, rel string) error {
	progs, ok := st.(store.Programs)
	if !ok {
		return nil
	}
	content, err := os.ReadFile(filepath.Join(st.Dir(), rel))
	if err != nil {
		return err
	}
	if err := progs.PutProgram(ctx, filepath.Base(rel), content); err != nil {
		return fmt.Errorf("storing the program in the database: %w", err)
	}
	return nil
}
