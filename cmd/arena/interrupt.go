package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// exitInterrupted is the exit code of a command stopped by the user (Ctrl-C or
// SIGTERM), as a shell reports a process ended by SIGINT: 128 + 2.
const exitInterrupted = 130

// errInterrupted is the cause of a context ended by the user.
var errInterrupted = errors.New("interrupted")

// interrupted wraps an error of a command the user stopped, so that main exits with
// exitInterrupted.
type interrupted struct{ err error }

func (e interrupted) Error() string { return e.err.Error() }
func (e interrupted) Unwrap() error { return e.err }

// exitCode is the process's exit code for a command's error.
func exitCode(err error) int {
	if errors.Is(err, errInterrupted) {
		return exitInterrupted
	}
	return 1
}

// quitNow ends the process at once (a variable for the tests).
var quitNow = func() { os.Exit(exitInterrupted) }

// sameSignal is how close a second signal may follow the first and still be the same
// one: GNU timeout (`timeout -s INT 60 arena match ...`) signals its child and then
// the child's process group, which delivers two at once, and no person presses Ctrl-C
// twice within half a second by accident.
const sameSignal = 500 * time.Millisecond

// interruptible is ctx ended by the first Ctrl-C (or SIGTERM), with cause
// errInterrupted: the command stops cleanly and reports. A second one (past
// sameSignal) ends the process at once (its bots die with it: see the parent-death
// signal). stop releases the signals.
func interruptible(ctx context.Context, w io.Writer) (context.Context, func()) {
	first, _, stop := interruptibleInStages(ctx, w, false)
	return first, stop
}

// interruptibleInStages is interruptible for a command that stops in two stages
// (the worker: softly, then at once): with soft, the second signal ends the second
// context (with cause errInterrupted) and only a third ends the process.
func interruptibleInStages(ctx context.Context, w io.Writer, soft bool) (first, second context.Context, stop func()) {
	first, cancel := context.WithCancelCause(ctx)
	second, cancelSecond := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-quit:
			return
		}
		last := time.Now()
		if soft {
			fmt.Fprintln(w, "arena: stopping softly (Ctrl-C again to stop at once)")
		} else {
			fmt.Fprintln(w, "arena: stopping (Ctrl-C again to quit at once)")
		}
		cancel(errInterrupted)
		for {
			select {
			case <-sigs:
				if time.Since(last) < sameSignal {
					continue
				}
				if soft {
					soft, last = false, time.Now()
					fmt.Fprintln(w, "arena: stopping at once (Ctrl-C again to quit)")
					cancelSecond(errInterrupted)
					continue
				}
				fmt.Fprintln(w, "arena: quit")
				quitNow()
			case <-quit:
				return
			}
		}
	}()
	return first, second, func() {
		signal.Stop(sigs)
		close(quit)
		cancel(nil)
		cancelSecond(nil)
	}
}

// userStopped reports whether ctx was ended by the user.
func userStopped(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}
