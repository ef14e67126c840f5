package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// row is one line of the table: a ratio per repetition, and the two sides' figures.
type row struct {
	name, goal string
	ratio      func(r rep) float64
	num, den   func(r rep) string
}

func rows(base, workers bool) []row {
	us := func(f func(r rep) time.Duration) func(r rep) string {
		return func(r rep) string { return fmt.Sprintf("%.1f µs", float64(f(r))/1e3) }
	}
	rt1 := func(r rep) time.Duration { return r.j1.meanRT }
	rt2 := func(r rep) time.Duration { return r.j2.meanRT }
	w1 := func(r rep) time.Duration { return r.j1.perDecision() }
	w2 := func(r rep) time.Duration { return r.j2.perDecision() }
	bare1 := func(r rep) time.Duration { return r.bare1 }
	bare2 := func(r rep) time.Duration { return r.bare2 }
	oneP := func(r rep) time.Duration { return r.bareOneP }
	inTurn := func(r rep) time.Duration { return r.bareInTurn }
	lat2 := func(r rep) time.Duration { return r.lat2 }
	out := []row{
		{"decision round trip, 1 match / bare stream Send+Recv", "<= 1.10", div(rt1, bare1), us(rt1), us(bare1)},
		{"decision round trip, 1 match / bare stream, its server on one P", "", div(rt1, oneP), us(rt1), us(oneP)},
		{"bare stream, its server on one P / bare stream", "", div(oneP, bare1), us(oneP), us(bare1)},
		{"bare, two one-P servers in turn (as a match's two bots) / bare stream", "", div(inTurn, bare1), us(inTurn), us(bare1)},
		{"decision round trip, 1 match / bare, two one-P servers in turn", "", div(rt1, inTurn), us(rt1), us(inTurn)},
		{"decision round trip, 2 matches / bare, 2 streams", "", div(rt2, lat2), us(rt2), us(lat2)},
		{"wall per decision, -j 1 / bare round trip", "", div(w1, bare1), us(w1), us(bare1)},
		{"wall per decision, -j 2 / bare wall per round trip, 2 streams", "", div(w2, bare2), us(w2), us(bare2)},
	}
	busy := func(m func(r rep) matchRun) func(r rep) float64 {
		return func(r rep) float64 { return m(r).coresBusy() }
	}
	secs := func(f func(r rep) time.Duration) func(r rep) string {
		return func(r rep) string { return fmt.Sprintf("%.2f s", f(r).Seconds()) }
	}
	out = append(out, ladderRows(base)...)
	out = append(out,
		row{"cores busy (CPU / wall), arena match -j 1", "", busy(func(r rep) matchRun { return r.j1 }),
			secs(func(r rep) time.Duration { return r.j1.cpu }), secs(func(r rep) time.Duration { return r.j1.wall })},
		row{"cores busy (CPU / wall), arena match -j 2", "", busy(func(r rep) matchRun { return r.j2 }),
			secs(func(r rep) time.Duration { return r.j2.cpu }), secs(func(r rep) time.Duration { return r.j2.wall })})
	if workers {
		out = append(out, workerRows(false)...)
	}
	out = append(out, []row{
		{"games/s, -j 2 / -j 1", ">= 1.8", func(r rep) float64 { return r.j2.gamesPerSec() / r.j1.gamesPerSec() },
			func(r rep) string { return fmt.Sprintf("%.0f/s", r.j2.gamesPerSec()) },
			func(r rep) string { return fmt.Sprintf("%.0f/s", r.j1.gamesPerSec()) }},
	}...)
	out = append(out, startRows(base)...)
	// Each layer against the one below it, in the same repetition.
	layers := []struct {
		name string
		f    func(r rep) time.Duration
	}{
		{"bare stream", bare1},
		{"structured messages", func(r rep) time.Duration { return r.structured }},
		{"Go SDK (random) in the bare process", func(r rep) time.Duration { return r.sdkBare }},
		{"arena's bot program (SDK, random, no sandbox)", func(r rep) time.Duration { return r.sdk }},
		{"protocol.Seat", func(r rep) time.Duration { return r.seat }},
		{"default sandbox", func(r rep) time.Duration { return r.boxed }},
		{"two seats, two bots in turn", func(r rep) time.Duration { return r.twoSeats }},
		{"the runner (-j 1 match)", rt1},
	}
	for i := 1; i < len(layers); i++ {
		l, below := layers[i], layers[i-1]
		out = append(out, row{"layer: " + l.name + " / " + below.name, "", div(l.f, below.f), us(l.f), us(below.f)})
	}
	if base {
		b1 := func(r rep) time.Duration { return r.b1.perDecision() }
		b2 := func(r rep) time.Duration { return r.b2.perDecision() }
		brt := func(r rep) time.Duration { return r.b1.meanRT }
		out = append(out,
			row{"new / base: decision round trip, -j 1", "", div(rt1, brt), us(rt1), us(brt)},
			row{"new / base: wall per decision, -j 1", "", div(w1, b1), us(w1), us(b1)},
			row{"new / base: wall per decision, -j 2", "", div(w2, b2), us(w2), us(b2)},
			row{"new / base: wall per decision, -j 2", "", div(w2, b2), us(w2), us(b2)})
	}
	return out
}

// chessRows compare the arena's wall time per decision with fastchess's per move
// (fastchess.go), at -j 1 and 2 against -concurrency 1 and 2.
func chessRows() []row {
	us := func(f func(r rep) time.Duration) func(r rep) string {
		return func(r rep) string { return fmt.Sprintf("%.1f µs", float64(f(r))/1e3) }
	}
	w1 := func(r rep) time.Duration { return r.j1.perDecision() }
	w2 := func(r rep) time.Duration { return r.j2.perDecision() }
	c1 := func(r rep) time.Duration { return r.fc1.perMove() }
	c2 := func(r rep) time.Duration { return r.fc2.perMove() }
	bare1 := func(r rep) time.Duration { return r.bare1 }
	bare2 := func(r rep) time.Duration { return r.bare2 }
	return []row{
		{"wall per decision, arena match -j 1 / fastchess per move, -concurrency 1", "<= 0.5", div(w1, c1), us(w1), us(c1)},
		{"wall per decision, arena match -j 2 / fastchess per move, -concurrency 2", "<= 0.5", div(w2, c2), us(w2), us(c2)},
		{"fastchess, moves/s at -concurrency 2 / 1", "", div(c1, c2), us(c2), us(c1)},
		// The floor: a bare go-plugin stream's round trip, nothing else, against a move.
		{"bare stream round trip / fastchess per move, 1 stream, -concurrency 1", "", div(bare1, c1), us(bare1), us(c1)},
		{"bare stream wall per round trip, 2 streams / fastchess per move, -concurrency 2", "", div(bare2, c2), us(bare2), us(c2)},
	}
}

// ladderRows are the rows of `ladder run` against `arena match` (all that
// --ladder-only measures), with base the base arena's too: games/s and CPU per game.
func ladderRows(base bool) []row {
	gps := func(a, b func(r rep) ladderOrMatch) row {
		return row{ratio: func(r rep) float64 { return a(r).gamesPerSec() / b(r).gamesPerSec() },
			num: func(r rep) string { return fmt.Sprintf("%.0f/s", a(r).gamesPerSec()) },
			den: func(r rep) string { return fmt.Sprintf("%.0f/s", b(r).gamesPerSec()) }}
	}
	cpu := func(a, b func(r rep) ladderOrMatch) row {
		return row{ratio: func(r rep) float64 { return float64(a(r).cpuPerGame()) / float64(b(r).cpuPerGame()) },
			num: func(r rep) string { return fmt.Sprintf("%.1f µs", float64(a(r).cpuPerGame())/1e3) },
			den: func(r rep) string { return fmt.Sprintf("%.1f µs", float64(b(r).cpuPerGame())/1e3) }}
	}
	named := func(name, goal string, r row) row { r.name, r.goal = name, goal; return r }
	l1 := func(r rep) ladderOrMatch { return r.l1 }
	l2 := func(r rep) ladderOrMatch { return r.l2 }
	j1 := func(r rep) ladderOrMatch { return r.j1 }
	j2 := func(r rep) ladderOrMatch { return r.j2 }
	out := []row{
		named("games/s, ladder run / arena match, -j 1", ">= 0.8", gps(l1, j1)),
		named("games/s, ladder run / arena match, -j 2", ">= 0.8", gps(l2, j2)),
		named("games/s, ladder run / arena match with replays, -j 1", "", gps(l1, func(r rep) ladderOrMatch { return r.r1 })),
		named("games/s, ladder run / arena match with replays, -j 2", "", gps(l2, func(r rep) ladderOrMatch { return r.r2 })),
		named("CPU per game (arena and bots), ladder run / arena match, -j 1", "", cpu(l1, j1)),
		named("CPU per game (arena and bots), ladder run / arena match, -j 2", "", cpu(l2, j2)),
		named("CPU per game (arena and bots), arena match, -j 2 / -j 1", "", cpu(j2, j1)),
		named("CPU per game (arena and bots), ladder run, -j 2 / -j 1", "", cpu(l2, l1)),
	}
	if base {
		bl1 := func(r rep) ladderOrMatch { return r.bl1 }
		bl2 := func(r rep) ladderOrMatch { return r.bl2 }
		out = append(out,
			named("new / base: games/s, ladder run -j 1", "", gps(l1, bl1)),
			named("new / base: games/s, ladder run -j 2", "", gps(l2, bl2)),
			named("CPU per game (arena and bots), new / base, ladder run -j 1", "", cpu(l1, bl1)),
			named("CPU per game (arena and bots), new / base, ladder run -j 2", "", cpu(l2, bl2)),
			named("base: games/s, ladder run / arena match, -j 1", "", gps(bl1, func(r rep) ladderOrMatch { return r.b1 })),
			named("base: games/s, ladder run / arena match, -j 2", "", gps(bl2, func(r rep) ladderOrMatch { return r.b2 })))
	}
	return out
}

// ladderOrMatch is a run of either command, as the ladder rows compare them.
type ladderOrMatch interface {
	gamesPerSec() float64
	cpuPerGame() time.Duration
}

// startRows are the rows of a start (all that --starts-only measures).
func startRows(base bool) []row {
	first := func(r rep) time.Duration { return r.first }
	plug := func(r rep) time.Duration { return r.pluginStart }
	none := func(r rep) time.Duration { return r.firstNone }
	plug2 := func(r rep) time.Duration { return r.pluginStart2 }
	sdk := func(r rep) time.Duration { return r.firstSDK }
	cpuArena := func(r rep) time.Duration { return r.cpuArena }
	cpuSDK := func(r rep) time.Duration { return r.cpuSDK }
	cpuBare := func(r rep) time.Duration { return r.cpuBare }
	out := []row{
		{"start to first decision / bare go-plugin start", "<= 2", div(first, plug), msf(first), msf(plug)},
		{"start, --sandbox none / bare go-plugin start", "", div(none, plug), msf(none), msf(plug)},
		{"start: default sandbox / --sandbox none", "", div(first, none), msf(first), msf(none)},
		{"bare go-plugin starts, two at once / one", "", div(plug2, plug), msf(plug2), msf(plug)},
		{"start to first decision / two bare go-plugin starts at once", "", div(first, plug2), msf(first), msf(plug2)},
		{"start, the Go SDK's random program / two bare starts at once", "", div(sdk, plug2), msf(sdk), msf(plug2)},
		{"CPU to the handshake: arena's bot program (serve-bot random) / Go SDK's random program", "", div(cpuArena, cpuSDK), msf(cpuArena), msf(cpuSDK)},
		{"CPU to the handshake: Go SDK's random program / bare go-plugin process", "", div(cpuSDK, cpuBare), msf(cpuSDK), msf(cpuBare)},
	}
	if base {
		bfirst := func(r rep) time.Duration { return r.baseFirst }
		deal := func(r rep) time.Duration { return r.oneDeal }
		bdeal := func(r rep) time.Duration { return r.baseOneDeal }
		out = append(out,
			row{"new / base: start to first decision", "", div(first, bfirst), msf(first), msf(bfirst)},
			row{"new / base: `arena match` of one deal, the whole command", "", div(deal, bdeal), msf(deal), msf(bdeal)})
	}
	return out
}

// msf formats a figure in milliseconds.
func msf(f func(r rep) time.Duration) func(r rep) string {
	return func(r rep) string { return fmt.Sprintf("%.1f ms", float64(f(r))/1e6) }
}

// div is the ratio of two figures.
func div(a, b func(r rep) time.Duration) func(r rep) float64 {
	return func(r rep) float64 { return float64(a(r)) / float64(b(r)) }
}

// workerRows compare `arena worker` with `arena match` at -j 1, 2 and 4, without
// replays (the goal) and with them: a worker stores every game's replay, as a
// match with --replays writes one. With base, also the worker against the base
// arena's.
func workerRows(base bool) []row {
	var out []row
	for _, j := range []int{1, 2, 4} {
		worker := func(r rep) workerRun { return map[int]workerRun{1: r.w1, 2: r.w2, 4: r.w4}[j] }
		for _, replays := range []bool{false, true} {
			match := func(r rep) matchRun { return map[int]matchRun{1: r.j1, 2: r.j2, 4: r.j4}[j] }
			name, goal := fmt.Sprintf("games/s, arena worker (PostgreSQL) / arena match, -j %d", j), ">= 0.8"
			if j == 4 {
				goal = ""
			}
			if replays {
				match = func(r rep) matchRun { return map[int]matchRun{1: r.r1, 2: r.r2, 4: r.r4}[j] }
				name, goal = fmt.Sprintf("games/s, arena worker (PostgreSQL) / arena match with replays, -j %d", j), ""
			}
			out = append(out, row{name, goal,
				func(r rep) float64 { return worker(r).gamesPerSec() / match(r).gamesPerSec() },
				func(r rep) string { return fmt.Sprintf("%.0f/s", worker(r).gamesPerSec()) },
				func(r rep) string { return fmt.Sprintf("%.0f/s", match(r).gamesPerSec()) }})
			if !replays {
				// Beside the goal's row (from the worker's exec): its pace past the start.
				out = append(out, row{fmt.Sprintf("games/s, arena worker past its start (first to last game) / arena match, -j %d", j), "",
					func(r rep) float64 { return worker(r).steadyPerSec() / match(r).gamesPerSec() },
					func(r rep) string { return fmt.Sprintf("%.0f/s", worker(r).steadyPerSec()) },
					func(r rep) string { return fmt.Sprintf("%.0f/s", match(r).gamesPerSec()) }})
			}
		}
		if base {
			old := func(r rep) workerRun { return map[int]workerRun{1: r.bw1, 2: r.bw2, 4: r.bw4}[j] }
			out = append(out, row{fmt.Sprintf("games/s, arena worker: new / base, -j %d", j), "",
				func(r rep) float64 { return worker(r).gamesPerSec() / old(r).gamesPerSec() },
				func(r rep) string { return fmt.Sprintf("%.0f/s", worker(r).gamesPerSec()) },
				func(r rep) string { return fmt.Sprintf("%.0f/s", old(r).gamesPerSec()) }})
		}
	}
	return out
}

// printTable prints each row's median ratio with its range, and the median of each
// side's own figure.
func printTable(w io.Writer, reps []rep, rows []row) {
	fmt.Fprintln(w, "| figure | ratio, median [min-max] | figures (medians) | goal |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, rw := range rows {
		var ratios []float64
		for _, r := range reps {
			ratios = append(ratios, rw.ratio(r))
		}
		lo, mid, hi := spread(ratios)
		fmt.Fprintf(w, "| %s | %.2f [%.2f-%.2f] | %s vs %s | %s |\n", rw.name, mid, lo, hi,
			middle(reps, rw.num), middle(reps, rw.den), rw.goal)
	}
	var loads []float64
	for _, r := range reps {
		loads = append(loads, r.load, r.loadLast)
	}
	lo, mid, hi := spread(loads)
	fmt.Fprintf(w, "\nload average (1 min) during the run: median %.2f [%.2f-%.2f] on %d repetitions\n", mid, lo, hi, len(reps))
}

// spread is the minimum, median and maximum.
func spread(v []float64) (lo, mid, hi float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	mid = s[n/2]
	if n%2 == 0 {
		mid = (s[n/2-1] + s[n/2]) / 2
	}
	return s[0], mid, s[n-1]
}

// middle is the median of one side's figure over the repetitions, as the row
// formats it.
func middle(reps []rep, f func(r rep) string) string {
	s := make([]string, 0, len(reps))
	for _, r := range reps {
		s = append(s, f(r))
	}
	slices.SortFunc(s, func(a, b string) int { return cmpNum(a, b) })
	return s[len(s)/2]
}

// cmpNum orders formatted figures by their leading number.
func cmpNum(a, b string) int {
	var x, y float64
	_, _ = fmt.Sscanf(a, "%g", &x)
	_, _ = fmt.Sscanf(b, "%g", &y)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
