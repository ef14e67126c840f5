package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv makes the test binary a writer that records games until it is killed.
const childEnv = "LADDER_STORE_TEST_WRITER"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(writer(path))
	}
	os.Exit(m.Run())
}

// writer records games of one long block as fast as it can, printing the rotation of
// each after its commit returned.
func writer(db string) int {
	s, err := OpenAny(ctx, db, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	bots, err := s.Bots(ctx, false)
	if err != nil || len(bots) < 2 {
		fmt.Fprintln(os.Stderr, "no bots", err)
		return 1
	}
	blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 3, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 1 << 20})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	for rot := 0; ; rot++ {
		if _, err := s.RecordMatch(ctx, game(blk, rot)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintln(out, rot)
		out.Flush()
	}
}

func TestStoreKilledWriterLosesNothingCommitted(t *testing.T) {
	forEachStore(t, killedWriter)
}

func killedWriter(t *testing.T, be backend) {
	path := be.fresh(t)
	s := be.open(t, path)
	addBots(t, s, "a", "b")
	require.NoError(t, s.Close())

	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		lines := bufio.NewScanner(stdout)
		committed := -1
		// Kill at a different moment each round, always in the middle of a stream of
		// transactions.
		for committed < 20+round*37 && lines.Scan() {
			committed, err = strconv.Atoi(lines.Text())
			require.NoError(t, err)
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		require.GreaterOrEqual(t, committed, 20+round*37, "writer stderr: %s", stderr.String())

		s := be.open(t, path)
		if sq, ok := s.(*SQLite); ok {
			var integrity string
			require.NoError(t, sq.db.QueryRow(`PRAGMA integrity_check`).Scan(&integrity))
			assert.Equal(t, "ok", integrity)
		}
		open, err := s.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		require.Len(t, open, round+1)
		done := open[round].Done
		require.GreaterOrEqual(t, len(done), committed+1, "every reported commit survives")
		for i, r := range done {
			require.Equal(t, i, r, "rotations are recorded without gaps")
		}
		seats := map[int64]int{}
		require.NoError(t, s.Matches(ctx, "ivanhoe", func(m Match) error { seats[m.Block] += len(m.Seats); return nil }))
		assert.Equal(t, 2*len(done), seats[open[round].ID], "no game lost a seat")
		// A resumed writer cannot record a finished rotation again.
		_, err = s.RecordMatch(ctx, game(open[round], done[len(done)-1]))
		require.ErrorIs(t, err, ErrDuplicate)
		require.NoError(t, s.Close())
	}
}
