package tally

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

var ctx = context.Background()

// ladderOf records games two-seat games of two bots into a real SQLite file and
// returns it with a bare connection to the same file.
func ladderOf(t *testing.T, games int) (*store.SQLite, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ladder.db")
	st, err := store.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	a, err := st.AddBot(ctx, store.Bot{Name: "a", Builtin: "random", SHA256: "a"})
	require.NoError(t, err)
	b, err := st.AddBot(ctx, store.Bot{Name: "b", Builtin: "random", SHA256: "b"})
	require.NoError(t, err)
	blk, err := st.NewBlock(ctx, store.Block{Game: "ivanhoe", Bots: []int64{a.ID, b.ID}, Rotations: games})
	require.NoError(t, err)
	for rot := range games {
		_, err := st.RecordMatch(ctx, store.Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe",
			Seats: []store.Seat{{Bot: a.ID, Place: rot % 2, Ending: "ok"}, {Bot: b.ID, Place: 1 - rot%2, Ending: "ok"}}})
		require.NoError(t, err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return st, db
}

func ids(t *testing.T, c *Cursor) []int64 {
	t.Helper()
	var out []int64
	require.NoError(t, c.Next(ctx, func(m store.Match) error { out = append(out, m.ID); return nil }))
	return out
}

// hide takes game id out of the database (as a transaction not yet committed would
// keep it from readers) and returns a func that puts it back.
func hide(t *testing.T, db *sql.DB, id int64) (restore func()) {
	t.Helper()
	for _, q := range []string{
		`CREATE TEMP TABLE IF NOT EXISTS hm AS SELECT * FROM matches WHERE 0`, `CREATE TEMP TABLE IF NOT EXISTS hs AS SELECT * FROM match_seats WHERE 0`,
		`INSERT INTO hm SELECT * FROM matches WHERE id = ?`, `INSERT INTO hs SELECT * FROM match_seats WHERE match_id = ?`,
		`DELETE FROM match_seats WHERE match_id = ?`, `DELETE FROM matches WHERE id = ?`,
	} {
		_, err := db.Exec(q, id)
		require.NoError(t, err, q)
	}
	return func() {
		for _, q := range []string{`INSERT INTO matches SELECT * FROM hm WHERE id = ?`, `INSERT INTO match_seats SELECT * FROM hs WHERE match_id = ?`} {
			_, err := db.Exec(q, id)
			require.NoError(t, err, q)
		}
	}
}

// TestACursorWaitsForALateGame: a game whose ID is below one already read, missing
// when it was read (committed late), is handed out when it appears; one that never
// appears is given up after HoleGrace; every game is handed out once.
func TestACursorWaitsForALateGame(t *testing.T) {
	st, db := ladderOf(t, 6)
	db.SetMaxOpenConns(1) // the temporary tables live on one connection
	c := NewCursor(st, "ivanhoe")
	now := time.Unix(1_700_000_000, 0)
	c.now = func() time.Time { return now }
	require.Equal(t, []int64{1, 2, 3, 4, 5, 6}, ids(t, c))

	restore := hide(t, db, 6)
	restore() // back at once: nothing new
	assert.Empty(t, ids(t, c))

	// Two more games, the first committed after the second.
	_, err := db.Exec(`INSERT INTO blocks (id, game, seed, rotations, created_ms) VALUES (2, 'ivanhoe', 1, 3, 0)`)
	require.NoError(t, err)
	for id := int64(7); id <= 9; id++ {
		_, err := db.Exec(`INSERT INTO matches (id, block_id, rotation, game, seed, adjudicated, replay, started_ms, finished_ms)
			VALUES (?, 2, ?, 'ivanhoe', 1, 0, '', 0, 0)`, id, id-7)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO match_seats VALUES (?, 0, 1, 0, 0, 'ok'), (?, 1, 2, 1, 0, 'ok')`, id, id)
		require.NoError(t, err)
	}
	late := hide(t, db, 7)
	never := hide(t, db, 8)
	assert.Equal(t, []int64{9}, ids(t, c))
	assert.Equal(t, 2, c.Holes())
	late()
	now = now.Add(time.Minute)
	assert.Equal(t, []int64{7}, ids(t, c), "the late game, once")
	assert.Equal(t, 1, c.Holes())
	now = now.Add(HoleGrace + time.Second)
	assert.Empty(t, ids(t, c))
	assert.Zero(t, c.Holes(), "given up")
	never()
	assert.Empty(t, ids(t, c), "too late: a restart's first read counts it")
	assert.EqualValues(t, 9, c.Last())
}

// TestTheFirstReadWaitsOnlyForTheNewestGaps: the history's old gaps (writes that
// failed long ago) are not looked for again; a gap among the newest games is.
func TestTheFirstReadWaitsOnlyForTheNewestGaps(t *testing.T) {
	st, db := ladderOf(t, 2*maxGap)
	db.SetMaxOpenConns(1)
	hide(t, db, 3)
	hide(t, db, 2*maxGap-1)
	c := NewCursor(st, "ivanhoe")
	got := ids(t, c)
	assert.Len(t, got, 2*maxGap-2)
	assert.Equal(t, 1, c.Holes(), "only the newest gap")
}
