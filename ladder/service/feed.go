package service

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/arena-games/arena/watch"
)

// feed is one live game's updates, read from its replay and re-played once however
// many watch it: re-playing and drawing cost about 0.1 ms and 31 KB a decision
// (BenchmarkFollowAGame in package watch), which a re-play per viewer would multiply.
type feed struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	fol     *watch.Follower
	ups     []dueUpdate
	err     error
	gone    bool
	viewers int
}

// dueUpdate is an update with when it was read.
type dueUpdate struct {
	read time.Time
	u    watch.Update
}

// feeds are the live games followed now, by their replay's path.
type feeds struct {
	mu    sync.Mutex
	games map[string]*feed
}

// open finds the feed of a live game's replay, opening it for the first viewer; an
// error says the replay is gone (the game has just ended).
func (all *feeds) open(path string) (*feed, error) {
	all.mu.Lock()
	defer all.mu.Unlock()
	if fd := all.games[path]; fd != nil {
		fd.viewers++
		return fd, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if all.games == nil {
		all.games = map[string]*feed{}
	}
	fd := &feed{path: path, f: f, fol: watch.Follow(f), viewers: 1}
	all.games[path] = fd
	return fd, nil
}

// leave is a viewer gone; the last one closes the feed.
func (all *feeds) leave(fd *feed) {
	all.mu.Lock()
	defer all.mu.Unlock()
	if fd.viewers--; fd.viewers == 0 {
		delete(all.games, fd.path)
		fd.f.Close()
	}
}

// poll reads what the runner wrote since the last poll (any viewer's) and returns
// every update so far, whether the replay is gone (then they are all the game's),
// and an error that stopped the reading.
func (fd *feed) poll() ([]dueUpdate, bool, error) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if fd.err == nil && !fd.gone {
		// Whether the file is gone is asked before it is read, so that the read
		// after it has everything the runner wrote.
		_, serr := os.Stat(fd.path)
		gone := errors.Is(serr, fs.ErrNotExist)
		ups, err := fd.fol.Read()
		now := time.Now()
		for _, u := range ups {
			fd.ups = append(fd.ups, dueUpdate{now, u})
		}
		fd.err, fd.gone = err, gone
	}
	return fd.ups, fd.gone, fd.err
}
