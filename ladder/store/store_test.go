package store

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ctx = context.Background()

func openTemp(t *testing.T) (*SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nested", "ladder.db")
	s, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// raw opens the file with the bare driver, to look at or tamper with what Open wrote.
func raw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func addBots(t *testing.T, s Store, names ...string) []Bot {
	var out []Bot
	for _, n := range names {
		b, err := s.AddBot(ctx, Bot{Name: n, SHA256: "sha-" + n, Builtin: n})
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}

func game(block Block, rot int) Match {
	n := len(block.Bots)
	m := Match{Block: block.ID, Rotation: rot, Game: block.Game, Seed: block.Seed, Replay: fmt.Sprintf("replays/%d-%d.json", block.ID, rot),
		Started: time.UnixMilli(1000), Finished: time.UnixMilli(2000)}
	for s := range n {
		m.Seats = append(m.Seats, Seat{Bot: block.Bots[(s+rot)%n], Place: s, Score: 10 - s, Ending: "ok"})
	}
	return m
}

func TestOpen(t *testing.T) {
	t.Run("an empty path gets every migration, WAL and a schema_version", func(t *testing.T) {
		_, path := openTemp(t)
		db := raw(t, path)
		var v int
		require.NoError(t, db.QueryRow(`SELECT version FROM schema_version`).Scan(&v))
		assert.Equal(t, SchemaVersion, v)
		var mode string
		require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
		assert.Equal(t, "wal", mode)
	})
	t.Run("reopening keeps bots, blocks and games", func(t *testing.T) {
		s, path := openTemp(t)
		bots := addBots(t, s, "random", "heuristic")
		blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 1<<63 + 5, Bots: []int64{bots[0].ID, bots[1].ID}, Rotations: 2})
		require.NoError(t, err)
		want, err := s.RecordMatch(ctx, game(blk, 1))
		require.NoError(t, err)
		require.NoError(t, s.Close())

		s2, err := Open(path)
		require.NoError(t, err)
		defer s2.Close()
		got, err := s2.Bots(ctx, true)
		require.NoError(t, err)
		assert.Equal(t, bots, got)
		var ms []Match
		require.NoError(t, s2.Matches(ctx, "ivanhoe", func(m Match) error { ms = append(ms, m); return nil }))
		require.Len(t, ms, 1)
		want.Started, want.Finished = want.Started.UTC(), want.Finished.UTC()
		assert.Equal(t, want, ms[0])
		assert.Equal(t, uint64(1<<63+5), ms[0].Seed, "a seed above 2^63 survives")
		open, err := s2.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		require.Len(t, open, 1)
		assert.Equal(t, []int{1}, open[0].Done)
		assert.Equal(t, []int64{bots[0].ID, bots[1].ID}, open[0].Bots)
	})
	t.Run("a version 1 file is migrated and keeps its bots", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "v1.db")
		old, err := openAt(path, 1)
		require.NoError(t, err)
		_, err = old.AddBot(ctx, Bot{Name: "old", SHA256: "abc", Path: "bots/abc"})
		require.NoError(t, err)
		require.NoError(t, old.Close())

		s, err := Open(path)
		require.NoError(t, err)
		defer s.Close()
		bots, err := s.Bots(ctx, false)
		require.NoError(t, err)
		require.Len(t, bots, 1)
		assert.Equal(t, "old", bots[0].Name)
		_, err = s.NewBlock(ctx, Block{Game: "g", Bots: []int64{bots[0].ID}, Rotations: 1})
		require.NoError(t, err, "the tables of migration 2 exist")
	})
}

// openAt opens a store migrated only up to version v, as an older arena left it.
func openAt(path string, v int) (*SQLite, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_journal_mode=WAL")
	if err != nil {
		return nil, err
	}
	s := &SQLite{db: db, path: path}
	return s, s.migrate(ctx, v)
}

func TestOpenRefusesWithoutTouching(t *testing.T) {
	foreign := func(t *testing.T, path string) {
		db := raw(t, path)
		_, err := db.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`)
		require.NoError(t, err)
		require.NoError(t, db.Close())
	}
	newer := func(t *testing.T, path string) {
		s, err := Open(path)
		require.NoError(t, err)
		_, err = s.db.Exec(`UPDATE schema_version SET version = 99`)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	damaged := func(t *testing.T, path string) {
		s, err := Open(path)
		require.NoError(t, err)
		addBots(t, s, "a", "b")
		require.NoError(t, s.Close())
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Greater(t, len(b), 4096)
		for i := 100; i < len(b); i++ { // keep the header, scramble the rest
			b[i] ^= 0x5a
		}
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
	cases := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    string
	}{
		{"a text file", func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, []byte("my notes\n"), 0o644)) }, "not an SQLite database"},
		{"another program's SQLite database", foreign, "not a ladder's"},
		{"a schema newer than this program", newer, "schema version 99 is newer than this arena knows"},
		{"a damaged database", damaged, "damaged"},
	}
	for _, c := range cases {
		t.Run(c.name+" gives one clear error and stays byte for byte", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ladder.db")
			c.prepare(t, path)
			before := digest(t, path)
			var s *SQLite
			var err error
			require.NotPanics(t, func() { s, err = Open(path) })
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), path)
			assert.NotContains(t, err.Error(), "\n")
			assert.Equal(t, before, digest(t, path))
		})
	}
	t.Run("a name with characters a URI reserves is the file's name", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "odd #1 %41")
		path := filepath.Join(dir, "a?b.db")
		s, err := Open(path)
		require.NoError(t, err)
		addBots(t, s, "a")
		require.NoError(t, s.Close())
		assert.FileExists(t, path)
		entries, err := os.ReadDir(filepath.Dir(dir))
		require.NoError(t, err)
		assert.Len(t, entries, 1, "nothing created beside the directory")
	})
	t.Run("a directory", func(t *testing.T) {
		_, err := Open(t.TempDir())
		require.ErrorContains(t, err, "is a directory")
	})
}

func digest(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

func TestRecordMatch(t *testing.T) {
	s, _ := openTemp(t)
	bots := addBots(t, s, "a", "b", "c")
	blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 9, Bots: []int64{bots[0].ID, bots[1].ID, bots[2].ID}, Rotations: 3})
	require.NoError(t, err)
	_, err = s.RecordMatch(ctx, game(blk, 0))
	require.NoError(t, err)

	t.Run("the same block and rotation twice is refused and not written", func(t *testing.T) {
		_, err := s.RecordMatch(ctx, game(blk, 0))
		require.ErrorIs(t, err, ErrDuplicate)
		n := 0
		require.NoError(t, s.Matches(ctx, "", func(Match) error { n++; return nil }))
		assert.Equal(t, 1, n)
	})
	t.Run("even racing writers record a rotation once", func(t *testing.T) {
		other, err := Open(s.Path())
		require.NoError(t, err)
		defer other.Close()
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := Store(s)
				if i%2 == 1 {
					st = other
				}
				_, errs[i] = st.RecordMatch(ctx, game(blk, 1))
			}()
		}
		wg.Wait()
		ok := 0
		for _, e := range errs {
			if e == nil {
				ok++
			} else {
				assert.ErrorIs(t, e, ErrDuplicate)
			}
		}
		assert.Equal(t, 1, ok)
	})
	t.Run("a rotation outside the block is refused", func(t *testing.T) {
		_, err := s.RecordMatch(ctx, game(blk, 3))
		require.ErrorContains(t, err, "rotations 0..2")
	})
	t.Run("an unknown block is refused", func(t *testing.T) {
		m := game(blk, 2)
		m.Block = 999
		_, err := s.RecordMatch(ctx, m)
		require.ErrorIs(t, err, ErrNotFound)
	})
	t.Run("a seat of an unknown bot rolls the whole game back", func(t *testing.T) {
		m := game(blk, 2)
		m.Seats[2].Bot = 999
		_, err := s.RecordMatch(ctx, m)
		require.Error(t, err)
		open, err := s.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		require.Len(t, open, 1)
		assert.Equal(t, []int{0, 1}, open[0].Done)
	})
	t.Run("a complete block is no longer open", func(t *testing.T) {
		_, err := s.RecordMatch(ctx, game(blk, 2))
		require.NoError(t, err)
		open, err := s.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		assert.Empty(t, open)
	})
}

func TestBots(t *testing.T) {
	s, _ := openTemp(t)
	v1, err := s.AddBot(ctx, Bot{Name: "mcts", SHA256: "one", Path: "bots/one"})
	require.NoError(t, err)
	assert.Equal(t, 1, v1.Version)
	t.Run("a new digest under the name is version 2 and retires version 1", func(t *testing.T) {
		v2, err := s.AddBot(ctx, Bot{Name: "mcts", SHA256: "two", Path: "bots/two"})
		require.NoError(t, err)
		assert.Equal(t, 2, v2.Version)
		active, err := s.Bots(ctx, false)
		require.NoError(t, err)
		require.Len(t, active, 1)
		assert.Equal(t, "two", active[0].SHA256)
		all, err := s.Bots(ctx, true)
		require.NoError(t, err)
		require.Len(t, all, 2)
		assert.False(t, all[0].Active())
	})
	t.Run("the same digest again is refused", func(t *testing.T) {
		_, err := s.AddBot(ctx, Bot{Name: "mcts", SHA256: "two"})
		require.ErrorIs(t, err, ErrDuplicate)
	})
	t.Run("retire leaves no active version; retiring again is not found", func(t *testing.T) {
		b, err := s.RetireBot(ctx, "mcts")
		require.NoError(t, err)
		assert.Equal(t, 2, b.Version)
		assert.False(t, b.Active())
		active, err := s.Bots(ctx, false)
		require.NoError(t, err)
		assert.Empty(t, active)
		_, err = s.RetireBot(ctx, "mcts")
		require.ErrorIs(t, err, ErrNotFound)
	})
	t.Run("a bot needs a name and a digest", func(t *testing.T) {
		_, err := s.AddBot(ctx, Bot{SHA256: "x"})
		assert.Error(t, err)
		_, err = s.AddBot(ctx, Bot{Name: "x"})
		assert.Error(t, err)
	})
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	p, err := DefaultPath()
	require.NoError(t, err)
	assert.Equal(t, "/data/arena/ladder.db", p)
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/me")
	p, err = DefaultPath()
	require.NoError(t, err)
	assert.Equal(t, "/home/me/.local/share/arena/ladder.db", p)
}

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
func writer(path string) int {
	s, err := Open(path)
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

func TestKilledWriterLosesNothingCommitted(t *testing.T) {
	s, path := openTemp(t)
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

		s, err := Open(path)
		require.NoError(t, err)
		var integrity string
		require.NoError(t, s.db.QueryRow(`PRAGMA integrity_check`).Scan(&integrity))
		assert.Equal(t, "ok", integrity)
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
