package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// workerRun is one `arena worker` playing a fresh PostgreSQL ladder of the same two
// built-in bots as ladder.go's, with `arena ladder serve` as its coordinator: from
// the worker's exec (the coordinator already queueing blocks) to the end of its
// games'th game, as a match is timed from exec to exit.
type workerRun struct {
	wall  time.Duration
	games int
	// steady is the time from the first game's end to the last's: the pace of a
	// worker past its start, which a ladder running for days lives on.
	steady time.Duration
}

func (w workerRun) gamesPerSec() float64 { return float64(w.games) / w.wall.Seconds() }

// steadyPerSec is the games/s between the first game's end and the last's.
func (w workerRun) steadyPerSec() float64 { return float64(w.games-1) / w.steady.Seconds() }

// pgLadder is a PostgreSQL cluster the worker rows run on, each run in a schema of
// its own (dropped after).
type pgLadder struct {
	url  string
	conn *pgx.Conn
	n    int
}

func openPG(ctx context.Context, dsn string) (*pgLadder, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL of the worker rows (--postgres): %v", err)
	}
	return &pgLadder{url: dsn, conn: conn}, nil
}

func (p *pgLadder) close() { _ = p.conn.Close(context.Background()) }

// schemaURL is the cluster's URL with the search path of schema.
func (p *pgLadder) schemaURL(schema string) (string, error) {
	u, err := url.Parse(p.url)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// runWorker plays games games with one worker at -j jobs on a fresh ladder.
func runWorker(ctx context.Context, arenaBin string, pg *pgLadder, games, jobs int) (workerRun, error) {
	pg.n++
	schema := fmt.Sprintf("arenabench_%d_%d", os.Getpid(), pg.n)
	if _, err := pg.conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return workerRun{}, err
	}
	defer func() { _, _ = pg.conn.Exec(context.WithoutCancel(ctx), "DROP SCHEMA "+schema+" CASCADE") }()
	db, err := pg.schemaURL(schema)
	if err != nil {
		return workerRun{}, err
	}
	if err := addBenchBots(arenaBin, db); err != nil {
		return workerRun{}, err
	}
	coord, err := startQuiet(arenaBin, "ladder", "serve", "--db", db, "--game", "ivanhoe", "--addr", "127.0.0.1:0")
	if err != nil {
		return workerRun{}, err
	}
	defer coord.stop()
	count := func() (int, error) {
		var n int
		err := pg.conn.QueryRow(ctx, "SELECT COUNT(*) FROM "+schema+".matches").Scan(&n)
		return n, err
	}
	queued := func() (int, error) {
		var n int
		err := pg.conn.QueryRow(ctx, "SELECT COUNT(*) FROM "+schema+".river_job WHERE state = 'available'").Scan(&n)
		return n, err
	}
	// The worker starts once the coordinator has blocks waiting, as a worker joins a
	// running ladder.
	if err := pollUntil(coord, 30*time.Second, queued, 1); err != nil {
		coord.stop()
		return workerRun{}, fmt.Errorf("the coordinator queued no block: %v: %s", err, coord.out.String())
	}
	start := time.Now()
	worker, err := startQuiet(arenaBin, "worker", "--db", db, "-j", strconv.Itoa(jobs))
	if err != nil {
		return workerRun{}, err
	}
	defer worker.stop()
	if err := pollUntil(worker, 10*time.Minute, count, games); err != nil {
		worker.stop()
		return workerRun{}, fmt.Errorf("the worker recorded too few games: %v: %s", err, worker.out.String())
	}
	return gamesSpan(ctx, pg.conn, schema, start, games)
}

// gamesSpan times a worker's first games games (by their end) from its exec at
// start, from the ends the worker recorded with each game (the same clock): the
// poll that saw them can come up to a poll's interval later.
func gamesSpan(ctx context.Context, conn *pgx.Conn, schema string, start time.Time, games int) (workerRun, error) {
	var first, last time.Time
	err := conn.QueryRow(ctx, `SELECT MIN(finished), MAX(finished) FROM (SELECT finished FROM `+schema+`.matches
		ORDER BY finished LIMIT $1) AS m`, games).Scan(&first, &last)
	if err != nil {
		return workerRun{}, err
	}
	return workerRun{wall: last.Sub(start), games: games, steady: last.Sub(first)}, nil
}

// pollUntil polls f every pollEvery until it reaches want, the process exits, or
// within passes. An error is tried again (the coordinator creates the queue's tables
// as it starts).
func pollUntil(p *quietProc, within time.Duration, f func() (int, error), want int) error {
	deadline := time.Now().Add(within)
	for {
		n, err := f()
		switch {
		case err == nil && n >= want:
			return nil
		case p.exited():
			return fmt.Errorf("%s exited", p.cmd)
		case time.Now().After(deadline) && err != nil:
			return err
		case time.Now().After(deadline):
			return fmt.Errorf("%d of %d after %v", n, want, within)
		}
		time.Sleep(pollEvery)
	}
}

// pollEvery is how often a worker's games are counted. The count is not the clock
// (gamesSpan is), so it need not be fine: a count every 5 ms was 200 queries a second
// to PostgreSQL, on the two cores the worker measured shares with its bots, and 1-2%
// of a core for PostgreSQL's process alone (/proc, load 15).
const pollEvery = 50 * time.Millisecond

// quietProc is a background arena process whose output is kept for an error.
type quietProc struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan struct{}
}

func startQuiet(bin string, args ...string) (*quietProc, error) {
	p := &quietProc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	return p, nil
}

func (p *quietProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop ends the process as an operator does (SIGTERM), and kills it if it has not
// exited within a minute (a worker finishes its blocks under way first). Its output
// may be read once it has stopped; a second stop does nothing.
func (p *quietProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
