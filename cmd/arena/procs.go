package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// playProcs runs the arena's Go code on as many cores at a time (GOMAXPROCS) as it
// plays matches (`arena match`) or blocks (`ladder run`, `arena worker`) at once,
// unless GOMAXPROCS is set. A match is one goroutine that waits for its bots by turns; with idle Ps to
// spare, each answer's wake-up also wakes threads that look for work and find none,
// on cores the bots need. At -j 1 a decision's round trip took 0.73-0.84 of the time
// on one P (docs/performance.md, "The runner's layer and the sandboxed start"), as the
// Go SDK's bots gained on one P; `ladder run -j 1` played 131-161 games/s on one P
// against 103-131 on two (three 400-game runs each, in turn, load 3). `arena worker
// -j 1` (River's and pgx's goroutines included) used 3.1-4.0 ms of its own CPU a game
// on one P against 4.4-4.6 on two, and played 61-111 games/s against 50-89 (three
// 600-game runs each, in turn, load 24-25).
func playProcs(jobs int) {
	if _, set := os.LookupEnv("GOMAXPROCS"); set || jobs < 1 || jobs >= runtime.GOMAXPROCS(0) {
		return
	}
	runtime.GOMAXPROCS(jobs)
}

// workerGC lets a worker's heap grow to five times what is live between collections
// (GOGC=400) unless GOGC is set. A worker keeps about 3 MB live (River, pgx, the
// block under way), so at Go's default it collected every 9 games or so at -j 1, 46
// times in 400 games, each 1.5-2 ms of CPU on the one P its games are played on
// (GODEBUG=gctrace=1, load 14). At 400 its heap stays near 15 MB.
func workerGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(workerGCPercent)
	}
}

const workerGCPercent = 400
