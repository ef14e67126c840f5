package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// ladderRun is one `arena ladder run` on a fresh SQLite ladder of two built-in random
// bots (random and random2), two-player Ivanhoe, default sandbox: the same bots as the
// `arena match` runs, playing blocks (one deal in both seatings) and recording every
// game with its replay.
type ladderRun struct {
	wall  time.Duration // of the whole command, from exec to exit
	cpu   time.Duration // its user and system time, its bots' included (commandCPU)
	games int
}

func (l ladderRun) gamesPerSec() float64      { return float64(l.games) / l.wall.Seconds() }
func (l ladderRun) cpuPerGame() time.Duration { return l.cpu / time.Duration(l.games) }

// newLadderTemplate makes the ladder every run starts from a copy of: its database
// with the two bots added (their smoke tests run here, not in the measured runs).
func newLadderTemplate(arenaBin string) (string, error) {
	dir, err := os.MkdirTemp("", "arenabench-ladder-")
	if err != nil {
		return "", err
	}
	db := filepath.Join(dir, "ladder.db")
	if err := addBenchBots(arenaBin, db); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return db, nil
}

// addBenchBots adds the two built-in random bots (random and random2) that every
// ladder and worker row plays to the ladder at db.
func addBenchBots(arenaBin, db string) error {
	for _, add := range [][]string{{"random"}, {"random", "--name", "random2"}} {
		cmd := exec.Command(arenaBin, append(append([]string{"bot", "add"}, add...), "--db", db)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", cmd, err, out)
		}
	}
	return nil
}

// runLadder plays games games at -j jobs on a copy of the template ladder.
func runLadder(arenaBin, template string, games, jobs int, seed uint64) (ladderRun, error) {
	dir, err := os.MkdirTemp("", "arenabench-ladder-run-")
	if err != nil {
		return ladderRun{}, err
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "ladder.db")
	if err := copyFile(template, db); err != nil {
		return ladderRun{}, err
	}
	cmd := exec.Command(arenaBin, "ladder", "run", "--game", "ivanhoe", "--db", db, "--matches", strconv.Itoa(games),
		"-j", strconv.Itoa(jobs), "--seed", strconv.FormatUint(seed, 10))
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return ladderRun{}, fmt.Errorf("%s: %v: %s", cmd, err, errb.String())
	}
	// The run's summary line: "recorded N games in B new blocks".
	n := 0
	if m := recordedRe.FindSubmatch(errb.Bytes()); m != nil {
		n, _ = strconv.Atoi(string(m[1]))
	}
	if n < games {
		return ladderRun{}, fmt.Errorf("%s recorded %d games, not %d: %s", cmd, n, games, errb.String())
	}
	return ladderRun{wall: wall, cpu: commandCPU(cmd), games: n}, nil
}

// recordedRe finds the count in `ladder run`'s summary line.
var recordedRe = regexp.MustCompile(`recorded (\d+) games`)

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}
