package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkSQLiteBlockOfTwoGames is a ladder block's writes on a fresh SQLite ladder:
// its row, then its two games' records, as `ladder run` makes them (CPU and
// allocations per block; the log syncs only at checkpoints, so few per op).
func BenchmarkSQLiteBlockOfTwoGames(b *testing.B) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), "ladder.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var bots []int64
	for i := range 2 {
		bot, err := s.AddBot(ctx, Bot{Name: fmt.Sprintf("bot%d", i), Builtin: "random", SHA256: fmt.Sprint(i)})
		if err != nil {
			b.Fatal(err)
		}
		bots = append(bots, bot.ID)
	}
	b.ReportAllocs()
	for b.Loop() {
		blk, err := s.NewBlock(ctx, Block{Game: "ivanhoe", Seed: 1, Rotations: 2, Bots: bots})
		if err != nil {
			b.Fatal(err)
		}
		for rot := range 2 {
			now := time.Now()
			m := Match{Block: blk.ID, Rotation: rot, Game: "ivanhoe", Seed: 7, Replay: "r.jsonl", Started: now, Finished: now,
				Seats: []Seat{{Bot: bots[rot], Place: 0, Score: 1, Ending: "ok"}, {Bot: bots[1-rot], Place: 1, Ending: "ok"}}}
			if _, err := s.RecordMatch(ctx, m); err != nil {
				b.Fatal(err)
			}
		}
	}
}
