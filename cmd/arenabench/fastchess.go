package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The chess tournament manager fastchess is the arena's nearest peer: it keeps two
// UCI engines up across games and sends them every move, as the arena keeps two bots
// and sends them every decision. With --fastchess DIR (a folder holding a fastchess
// build and its test engine random_mover, which answers every position with a random
// legal move), each repetition also runs fastchess with random_mover in both seats at
// -concurrency 1 and 2, for the row "per decision / fastchess per move": the arena's
// wall time per decision against fastchess's wall time per move (ply), each over its
// whole command, starts included.

// chessRun is one fastchess command: its wall time and the plies its games took.
type chessRun struct {
	wall  time.Duration
	plies int
	games int
}

func (c chessRun) perMove() time.Duration { return c.wall / time.Duration(c.plies) }

// fastchessGames is the games of each fastchess run: random games of chess take
// about 200 plies each, so 60 take about as many moves as 400 games of two-player
// Ivanhoe take decisions.
const fastchessGames = 60

// runFastchess runs dir's fastchess on games games of random_mover against itself,
// concurrency at once, and counts the plies in the games it wrote.
func runFastchess(dir string, games, concurrency int, seed uint64) (chessRun, error) {
	tmp, err := os.MkdirTemp("", "arenabench-fastchess-")
	if err != nil {
		return chessRun{}, err
	}
	defer os.RemoveAll(tmp)
	pgn := filepath.Join(tmp, "games.pgn")
	engine := filepath.Join(dir, "random_mover")
	cmd := exec.Command(filepath.Join(dir, "fastchess"),
		"-engine", "cmd="+engine, "name=a", "args="+strconv.FormatUint(seed, 10),
		"-engine", "cmd="+engine, "name=b", "args="+strconv.FormatUint(seed+1, 10),
		// A long clock: a random mover answers at once, so no game ends on time.
		"-each", "tc=600+1",
		"-rounds", strconv.Itoa(games/2), "-games", "2", "-repeat",
		"-concurrency", strconv.Itoa(concurrency),
		"-pgnout", "file="+pgn)
	cmd.Dir = tmp
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return chessRun{}, fmt.Errorf("%s: %v: %s", cmd, err, lastLines(out.String(), 5))
	}
	plies, played, err := pgnPlies(pgn)
	if err != nil {
		return chessRun{}, fmt.Errorf("%s: %v", cmd, err)
	}
	if played != games || plies == 0 {
		return chessRun{}, fmt.Errorf("%s: %d games of %d in its games file, %d plies: %s", cmd, played, games, plies, lastLines(out.String(), 5))
	}
	return chessRun{wall: wall, plies: plies, games: played}, nil
}

// pgnPlies sums the PlyCount tags of a PGN file, and counts its games.
func pgnPlies(path string) (plies, games int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "[PlyCount \"")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(rest, "\"]"))
		if err != nil {
			return 0, 0, fmt.Errorf("a PlyCount tag that is not a number: %q", sc.Text())
		}
		plies += n
		games++
	}
	return plies, games, sc.Err()
}

// lastLines is the last n lines of s, for an error message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}
