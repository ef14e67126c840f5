package ladder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/arena-games/arena/ladder/store"
)

// ErrLocked is wrapped by Lock's error when another process holds the lock.
var ErrLocked = store.ErrInUse

// LockStore takes the run lock of st: the database's own where it has one (a server
// database, which machines share without a common file), else Lock beside its file.
// path names the database: the SQLite file, or the URL without its password.
func LockStore(ctx context.Context, st store.Store, path string) (unlock func(), err error) {
	if l, ok := st.(store.RunLocker); ok {
		unlock, err := l.LockRun(ctx)
		if err != nil {
			return nil, fmt.Errorf("ladder %s is %w (one run per database at a time)", path, err)
		}
		return unlock, nil
	}
	return Lock(path)
}

// Lock takes the lock of the ladder database at dbPath (the file dbPath+".lock", held
// with flock), so that one `ladder run` at a time plays on a database: two would
// both resume the same incomplete blocks. The kernel drops the lock when the process
// ends, however it ends, so a killed run never leaves it held. The file records the
// holder's pid for the error of the next one; unlock releases it.
func Lock(dbPath string) (unlock func(), err error) {
	path := dbPath + ".lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ladder lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := "another process"
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = fmt.Sprintf("process %d", pid)
			}
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("ladder %s is %w: %s is running `ladder run` on it (one run per database at a time)", dbPath, ErrLocked, holder)
		}
		return nil, fmt.Errorf("ladder lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		_ = f.Truncate(0)
		f.Close()
	}, nil
}
