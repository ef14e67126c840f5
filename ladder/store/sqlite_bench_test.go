package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSQLiteBlockOfTwoGames is a ladder block's writes on a fresh SQLite ladder:
// its row, then its two games' records, as `ladder run` makes them (CPU and
// allocations per block; the log syncs only at checkpoints, so few per op): without
// a replay (a game whose replay is a file), and with one of about 10 KB, the size of
// a two-player Ivanhoe replay, kept in the database.
func BenchmarkSQLiteBlockOfTwoGames(b *testing.B) {
	b.Run("replay in a file", func(b *testing.B) { benchmarkBlocks(b, nil) })
	b.Run("replay in the database", func(b *testing.B) { benchmarkBlocks(b, fakeReplay(90)) })
}

func benchmarkBlocks(b *testing.B, replay []byte) {
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
				Seats: []Seat{{Bot: bots[rot], Place: 0, Score: 1, Ending: "ok"}, {Bot: bots[1-rot], Place: 1, Ending: "ok"}}, ReplayData: replay}
			if _, err := s.RecordMatch(ctx, m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// fakeReplay is JSON lines shaped like a replay's decisions, n of them.
func fakeReplay(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	texts := []string{"play red 4", "withdraw", "start a green tournament", "play maiden 6", "play squire 3", "pass"}
	var sb strings.Builder
	sb.WriteString(`{"type":"match","format":1,"match":"d0001-r1","game":"ivanhoe","players":2,"bots":["a","b"]}` + "\n")
	for i := range n {
		fmt.Fprintf(&sb, `{"type":"decision","n":%d,"seat":%d,"choice":%d,"option":{"kind":%d,"A":%d,"B":-1,"C":-1,"D":-1},"text":%q,"us":%d}`+"\n",
			i+1, rng.IntN(2), rng.IntN(8), rng.IntN(6), rng.IntN(40), texts[rng.IntN(len(texts))], 50+rng.IntN(200))
	}
	return []byte(sb.String())
}
