package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sqliteLadder is an SQLite ladder with a built-in bot, a bot program in its
// directory (two versions, one retired), a complete and an open block, and replay
// files for all games but one; and two authors, one of them revoked, the first owning
// a name and having submitted twice.
func sqliteLadder(t *testing.T) *SQLite {
	s, _ := openTemp(t)
	bots := addBots(t, s, "random")
	ann, err := s.AddAuthor(ctx, "ann", "hash-a")
	require.NoError(t, err)
	_, err = s.AddAuthor(ctx, "bob", "hash-b")
	require.NoError(t, err)
	_, err = s.RevokeAuthor(ctx, "bob")
	require.NoError(t, err)
	require.NoError(t, s.Claim(ctx, ann.ID, "annbot"))
	require.NoError(t, s.CountSubmission(ctx, ann.ID))
	require.NoError(t, s.CountSubmission(ctx, ann.ID))
	var progs []Bot
	for i, content := range []string{"#!/bin/sh\necho v1\n", "#!/bin/sh\necho v2\n"} {
		sum := SHA256Hex([]byte(content))
		rel := filepath.Join("bots", sum)
		require.NoError(t, os.MkdirAll(filepath.Join(s.Dir(), "bots"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), rel), []byte(content), 0o555))
		b, err := s.AddBot(ctx, Bot{Name: "prog", SHA256: sum, Path: rel})
		require.NoError(t, err)
		require.Equal(t, i+1, b.Version)
		progs = append(progs, b)
	}
	for i, rots := range []int{2, 1} {
		blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 1<<63 + uint64(i), Bots: []int64{bots[0].ID, progs[1].ID}, Rotations: 2})
		require.NoError(t, err)
		for r := range rots {
			m := game(blk, r)
			m.Replay = filepath.Join(s.Dir(), "replays", filepath.Base(m.Replay))
			if i == 0 {
				require.NoError(t, os.MkdirAll(filepath.Dir(m.Replay), 0o755))
				require.NoError(t, os.WriteFile(m.Replay, []byte(`{"type":"match","n":`+m.Replay+`}`+"\n"), 0o644))
			}
			_, err := s.RecordMatch(ctx, m)
			require.NoError(t, err)
		}
	}
	return s
}

func TestImportSQLiteIntoPostgres(t *testing.T) {
	src := sqliteLadder(t)
	db := postgresBackend.fresh(t)
	dst := postgresBackend.open(t, db).(*Postgres)
	sum, err := dst.Import(ctx, src)
	require.NoError(t, err)
	assert.Equal(t, ImportSummary{Bots: 3, Programs: 2, Blocks: 2, Games: 3, Replays: 2, MissingReplays: 1, Authors: 2}, sum)

	t.Run("bots, blocks, games and replays are as they were, IDs included", func(t *testing.T) {
		for _, all := range []bool{false, true} {
			want, err := src.Bots(ctx, all)
			require.NoError(t, err)
			got, err := dst.Bots(ctx, all)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		}
		want, err := src.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		got, err := dst.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		assert.Equal(t, want, got)
		assert.Equal(t, allMatches(t, src, ""), allMatches(t, dst, ""))
		for _, m := range allMatches(t, src, "") {
			want, werr := src.Replay(ctx, m.ID)
			got, gerr := dst.Replay(ctx, m.ID)
			if werr != nil {
				assert.ErrorIs(t, gerr, ErrNotFound)
				continue
			}
			require.NoError(t, gerr)
			assert.Equal(t, want, got)
		}
		bots, err := src.Bots(ctx, true)
		require.NoError(t, err)
		for _, b := range bots[1:] {
			content, err := dst.Program(ctx, b.SHA256)
			require.NoError(t, err)
			assert.Equal(t, b.SHA256, SHA256Hex(content))
		}
	})
	t.Run("authors keep their tokens, names and submissions; a revoked one stays revoked", func(t *testing.T) {
		want, err := src.AuthorByToken(ctx, "hash-a")
		require.NoError(t, err)
		got, err := dst.AuthorByToken(ctx, "hash-a")
		require.NoError(t, err)
		assert.Equal(t, want, got)
		_, err = dst.AuthorByToken(ctx, "hash-b")
		assert.ErrorIs(t, err, ErrNotFound, "bob's token was revoked")
		_, err = dst.RevokeAuthor(ctx, "bob")
		assert.ErrorIs(t, err, ErrNotFound, "bob is there, revoked")
		owner, ok, err := dst.Owner(ctx, "annbot")
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, want.ID, owner)
		assert.ErrorIs(t, dst.Claim(ctx, want.ID+1, "annbot"), ErrDuplicate)
		n, err := dst.Submissions(ctx, want.ID, time.Now().Add(-time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 2, n)
	})
	t.Run("new rows continue after the imported IDs", func(t *testing.T) {
		cid, err := dst.AddAuthor(ctx, "cid", "hash-c")
		require.NoError(t, err)
		assert.Equal(t, int64(3), cid.ID)
		require.NoError(t, dst.CountSubmission(ctx, cid.ID), "a submission's ID after the imported ones")

		b, err := dst.AddBot(ctx, Bot{Name: "heuristic", SHA256: "h", Builtin: "heuristic"})
		require.NoError(t, err)
		assert.Equal(t, int64(4), b.ID)
		open, err := dst.OpenBlocks(ctx, "ivanhoe")
		require.NoError(t, err)
		m, err := dst.RecordMatch(ctx, game(open[0], 1))
		require.NoError(t, err)
		assert.Equal(t, int64(4), m.ID)
	})
	t.Run("a second import is refused and changes nothing", func(t *testing.T) {
		before := pgFingerprint(t, db)
		_, err := dst.Import(ctx, src)
		require.ErrorContains(t, err, "already holds a ladder")
		assert.Equal(t, before, pgFingerprint(t, db))
	})
}

func TestImportWithAMissingProgramLeavesTheTargetEmpty(t *testing.T) {
	src := sqliteLadder(t)
	bots, err := src.Bots(ctx, true)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(src.Dir(), bots[1].Path)))
	db := postgresBackend.fresh(t)
	dst := postgresBackend.open(t, db).(*Postgres)
	before := pgFingerprint(t, db)
	_, err = dst.Import(ctx, src)
	require.ErrorContains(t, err, "bot prog v1")
	assert.Equal(t, before, pgFingerprint(t, db))
}
