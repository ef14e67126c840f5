package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// Network namespaces made ahead. A new network namespace is the least steady part of
// a confined bot's start: alone it costs 0.4-0.5 ms, but a clone that made one took
// 3-28 ms on a loaded machine, where ended namespaces are torn down. As root the
// arena makes them ahead, in the background (the probe makes the first ones, which is
// also its test that namespaces can be made), and the helper enters one (setns)
// instead of the clone making it. Each is fresh, made for one bot and used once: no
// two bots share one. Without root (a user namespace per bot) the clone makes it.

// aheadNetNS is how many made-ahead namespaces the arena holds: a two-seat match
// starts two bots at once.
const aheadNetNS = 2

var (
	aheadNS   = make(chan *os.File, aheadNetNS)
	fillingMu sync.Mutex
	filling   bool
)

// newNetNS makes a network namespace and returns it open.
func newNetNS() (*os.File, error) {
	return unshareAside(unix.CLONE_NEWNET, "net", true)
}

// unshareAside makes a new namespace of a kind (kind and its /proc name) on a thread
// locked for the purpose, returns it open if keep is set, and puts the thread back
// into its own namespace before the runtime may use it again: no goroutine of the
// arena ever runs in the new one. The thread is not simply left to end with its
// goroutine: a bot's helper started from it earlier gets its parent-death signal when
// it ends.
func unshareAside(kind int, name string, keep bool) (*os.File, error) {
	type made struct {
		f   *os.File
		err error
	}
	ch := make(chan made, 1)
	go func() {
		runtime.LockOSThread()
		f, err, back := unshareOnThread(kind, name, keep)
		ch <- made{f, err}
		if !back {
			// Still in the new namespace, which no goroutine may inherit: the thread is
			// kept locked and idle for good (setns back to its own never fails as root).
			select {}
		}
		runtime.UnlockOSThread()
	}()
	m := <-ch
	return m.f, m.err
}

// unshareOnThread does unshareAside's work on the locked thread; back reports whether
// the thread is in its own namespace again.
func unshareOnThread(kind int, name string, keep bool) (f *os.File, err error, back bool) {
	self := fmt.Sprintf("/proc/self/task/%d/ns/%s", unix.Gettid(), name)
	own, err := unix.Open(self, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err, true
	}
	defer unix.Close(own)
	if err := unix.Unshare(kind); err != nil {
		return nil, err, true
	}
	if keep {
		f, err = os.Open(self)
	}
	if serr := unix.Setns(own, kind); serr != nil {
		return f, errors.Join(err, serr), false
	}
	return f, err, true
}

// probeNamespaces is the probe's test, as root, that network and PID namespaces can be
// made: it makes aheadNetNS network namespaces at once, keeping them for the first
// bots, and a PID namespace, which it drops.
func probeNamespaces() error {
	errs := make(chan error, aheadNetNS+1)
	for range aheadNetNS {
		go func() {
			f, err := newNetNS()
			if f != nil {
				keepNetNS(f)
			}
			errs <- err
		}()
	}
	go func() {
		_, err := unshareAside(unix.CLONE_NEWPID, "pid", false)
		errs <- err
	}()
	var first error
	for range aheadNetNS + 1 {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// keepNetNS holds a made-ahead namespace for a later bot, or closes it when enough are.
func keepNetNS(f *os.File) {
	select {
	case aheadNS <- f:
	default:
		f.Close()
	}
}

// takeNetNS hands out a made-ahead namespace, nil when none is ready (the clone then
// makes the bot's). The next ones are made once the bot has started (Box.Started) or
// its box is cleaned up: made at once, they took CPU from the start of the bots that
// took them (two at a time, for a two-seat match), and from nothing else.
func takeNetNS() *os.File {
	select {
	case f := <-aheadNS:
		return f
	default:
		return nil
	}
}

// refillNetNS makes namespaces in the background until aheadNetNS are held.
func refillNetNS() {
	fillingMu.Lock()
	defer fillingMu.Unlock()
	if filling {
		return
	}
	filling = true
	go func() {
		defer func() {
			fillingMu.Lock()
			filling = false
			fillingMu.Unlock()
		}()
		for len(aheadNS) < cap(aheadNS) {
			f, err := newNetNS()
			if err != nil {
				if f != nil {
					f.Close()
				}
				return
			}
			keepNetNS(f)
		}
	}()
}
