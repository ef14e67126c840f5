package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/arena-games/arena/ladder/store"
)

// A worker's replays wait in a folder of its own under the cache's replays/ until they
// are stored with their game (in the database, in the same transaction). A worker that
// is killed leaves its folder behind, holding only replays of games never recorded or
// already stored. So each worker holds an exclusive lock on a file in its folder while
// it runs, and a worker that starts removes every other worker's folder whose lock it
// can take: its owner is gone. Workers that share a cache on one machine never remove
// each other's; flock is per machine, so a cache shared between machines needs a
// filesystem whose locks span them (NFSv4 has them), or a cache per machine, the
// deployment's default.

const (
	workerReplayPrefix = "worker-"
	replayLockFile     = ".lock"
)

// workerReplayDir makes this worker's replay folder under parent, locked, and removes
// the folders of workers that are gone. release unlocks and removes the folder.
func workerReplayDir(parent string) (dir string, release func(), err error) {
	if err := store.PrivateDir(parent); err != nil {
		return "", nil, err
	}
	// Made under another prefix and renamed once locked, so that no other worker's
	// sweep sees it unlocked.
	tmp, err := os.MkdirTemp(parent, "starting-")
	if err != nil {
		return "", nil, err
	}
	lock, err := os.OpenFile(filepath.Join(tmp, replayLockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err == nil {
		dir = filepath.Join(parent, workerReplayPrefix+strings.TrimPrefix(filepath.Base(tmp), "starting-"))
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(tmp)
		return "", nil, err
	}
	sweepWorkerReplayDirs(parent)
	return dir, func() { os.RemoveAll(dir); lock.Close() }, nil
}

// sweepWorkerReplayDirs removes the worker folders under parent whose lock is free
// (flock's locks belong to an open file, so this worker's own folder, locked through
// another, stays). A folder without a lock file (an older build's) is left alone.
func sweepWorkerReplayDirs(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, workerReplayPrefix+"*"))
	for _, d := range dirs {
		f, err := os.Open(filepath.Join(d, replayLockFile))
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(d)
		}
		f.Close()
	}
}
