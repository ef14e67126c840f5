package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/engine/kardinal"
	_ "github.com/arena-games/arena/engine/ninjas"
)

// step is one decision of a played game: the state before it (a clone), the option
// chosen, the time the bot took and whether the game's fallback played it.
type step struct {
	g        engine.Game
	choice   int
	took     time.Duration
	fallback bool
}

// playedGame plays a game of name with seeded random choices and bot times. From
// decision forfeitAt on (never when negative) seat 0's decisions are the fallback's,
// as for a forfeited seat. It returns every decision and the final state.
func playedGame(t testing.TB, name string, players int, seed uint64, forfeitAt int) ([]step, engine.Game) {
	g, err := engine.New(name, seed, players)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, 31))
	var steps []step
	for !g.Terminal() {
		st := step{g: g.Clone(), choice: rng.IntN(len(g.Options())), took: time.Duration(rng.Int64N(int64(5 * time.Millisecond)))}
		if forfeitAt >= 0 && g.Decisions() >= forfeitAt && g.ToMove() == 0 {
			st.choice, st.took, st.fallback = g.Fallback(), 0, true
		}
		steps = append(steps, st)
		require.NoError(t, g.Apply(st.choice))
	}
	return steps, g
}

// buildReplay writes a played game's decisions and result to rw, as a match does.
func buildReplay(rw *replayWriter, steps []step, end engine.Game) {
	for _, st := range steps {
		rw.decision(st.g, st.choice, st.took, st.fallback)
	}
	rw.write(resultRecord(end))
}

// resultRecord is a played game's result record (no seat forfeited).
func resultRecord(end engine.Game) Record {
	r := end.Result()
	return Record{Type: "result", Place: r.Place, GamePlace: r.Place, Score: r.Score, N: end.Decisions(), Hash: hashString(end.Hash())}
}

// replayTables are the games and player counts the replay benchmark and tests play.
var replayTables = []struct {
	game    string
	players int
}{{"ivanhoe", 2}, {"ivanhoe", 5}, {"kardinal", 3}, {"ninjas", 2}, {"ninjas", 6}}

// BenchmarkReplayBuilding is what keeping a replay costs a game beside its play: the
// records of every decision (the option's words included) and the result, encoded
// into memory as the ladder keeps them. One op is one whole game.
func BenchmarkReplayBuilding(b *testing.B) {
	for _, tb := range replayTables {
		steps, end := playedGame(b, tb.game, tb.players, 7, -1)
		b.Run(fmt.Sprintf("%s/%dp", tb.game, tb.players), func(b *testing.B) {
			b.ReportAllocs()
			size, cpu0 := 0, processCPU()
			for b.Loop() {
				rw := &replayWriter{}
				rw.toMemory()
				buildReplay(rw, steps, end)
				size = rw.mem.Len()
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
			b.ReportMetric(float64(len(steps)), "decisions/game")
			b.ReportMetric(float64(size), "bytes/game")
		})
	}
}

// processCPU is the CPU time the test process has used: on a shared machine the
// figure to quote, as wall time counts other processes' turns.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// referenceRecords encodes a played game's records with encoding/json, as the replay
// format was first written.
func referenceRecords(steps []step, end engine.Game) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, st := range steps {
		o := st.g.Options()[st.choice]
		_ = enc.Encode(Record{Type: "decision", N: st.g.Decisions(), Seat: st.g.ToMove(), Choice: st.choice, Option: optionJSON(o),
			Text: st.g.Describe(o), Micros: st.took.Microseconds(), Forfeit: st.fallback})
	}
	_ = enc.Encode(resultRecord(end))
	return buf.Bytes()
}

// The replay writer's records are encoding/json's byte for byte, over whole games of
// every game and several player counts, with and without a forfeited seat.
func TestReplayRecordsAreEncodingJSONs(t *testing.T) {
	for _, tb := range replayTables {
		for seed := uint64(1); seed <= 6; seed++ {
			forfeitAt := -1
			if seed%2 == 0 {
				forfeitAt = int(seed) * 5
			}
			steps, end := playedGame(t, tb.game, tb.players, seed, forfeitAt)
			rw := &replayWriter{}
			rw.toMemory()
			buildReplay(rw, steps, end)
			require.NoError(t, rw.err)
			require.Equal(t, string(referenceRecords(steps, end)), rw.mem.String(), "%s, %d players, seed %d", tb.game, tb.players, seed)
		}
	}
}

// encodedDecision is a decision's record as encoding/json's Encoder writes it.
func encodedDecision(n, seat, choice int, o engine.Option, text string, micros int64, forfeit bool) string {
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(Record{Type: "decision", N: n, Seat: seat, Choice: choice, Option: optionJSON(o),
		Text: text, Micros: micros, Forfeit: forfeit})
	return buf.String()
}

// Texts that JSON escapes, and the zero values it leaves out, are written as
// encoding/json writes them.
func TestADecisionsRecordEscapesItsTextAsEncodingJSONDoes(t *testing.T) {
	texts := []string{"", "play Squire 3", `say "hi"`, `back\slash`, "a\nb\tc\rd\be\ff\x01\x1f", "<b>&amp;</b>",
		"Württemberg", "line\u2028sep\u2029", "bad \xff\xfe utf-8", "\ufffd kept", "del \x7f", "emoji 🃏"}
	for _, text := range texts {
		for _, zero := range []bool{true, false} {
			n, seat, choice, micros, o := 0, 0, 0, int64(0), engine.Option{}
			if !zero {
				n, seat, choice, micros, o = 17, 4, 3, -5, engine.Option{Kind: 255, A: -32768, B: 32767, C: -1, D: 9}
			}
			want := encodedDecision(n, seat, choice, o, text, micros, !zero)
			got := appendDecision([]byte("kept|"), n, seat, choice, o, text, micros, !zero)
			require.Equal(t, "kept|"+want, string(got), "%q", text)
		}
	}
}

func FuzzDecisionRecord(f *testing.F) {
	f.Add(0, 0, 0, uint8(0), int16(0), int16(0), int16(0), int16(0), "", int64(0), false)
	f.Add(12, 1, 4, uint8(3), int16(-1), int16(200), int16(0), int16(7), `Dodge: "<&>" \ `+"\u2028\xff", int64(1234), true)
	f.Fuzz(func(t *testing.T, n, seat, choice int, kind uint8, a, b, c, d int16, text string, micros int64, forfeit bool) {
		o := engine.Option{Kind: kind, A: a, B: b, C: c, D: d}
		want := encodedDecision(n, seat, choice, o, text, micros, forfeit)
		if got := string(appendDecision(nil, n, seat, choice, o, text, micros, forfeit)); got != want {
			t.Fatalf("appended %q, encoding/json %q", got, want)
		}
	})
}

// The decision lines of replays written by `arena match` (test data of every game)
// are appended again byte for byte.
func TestRealReplaysDecisionsAreAppendedAsWritten(t *testing.T) {
	for name, b := range realReplays(t) {
		decisions := 0
		for _, line := range bytes.SplitAfter(b, []byte("\n")) {
			var rec Record
			if len(line) == 0 || json.Unmarshal(line, &rec) != nil || rec.Type != "decision" {
				continue
			}
			decisions++
			got := appendDecision(nil, rec.N, rec.Seat, rec.Choice, rec.Option.option(), rec.Text, rec.Micros, rec.Forfeit)
			require.Equal(t, string(line), string(got), name)
		}
		require.NotZero(t, decisions, name)
	}
}

// BenchmarkReplayFile is what a replay's file costs a game beside its records: made
// under its temporary name, written, closed and moved to its own name, as `arena
// match` keeps a replay (a two-player Ivanhoe game's records). One op is one game.
func BenchmarkReplayFile(b *testing.B) {
	steps, end := playedGame(b, "ivanhoe", 2, 7, -1)
	mem := &replayWriter{}
	mem.toMemory()
	buildReplay(mem, steps, end)
	records, dir := mem.mem.Bytes(), b.TempDir()
	b.ReportAllocs()
	cpu0, i := processCPU(), 0
	for b.Loop() {
		i++
		res := &MatchResult{}
		rw := &replayWriter{}
		require.NoError(b, openReplayFile(filepath.Join(dir, fmt.Sprintf("d%05d-r0.jsonl", i)), res, rw))
		_, _ = rw.out.Write(records)
		require.NoError(b, rw.close())
		require.NoError(b, commitReplay(res))
	}
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
}

// A live replay's file holds each decision's record as soon as it is made, for the
// ladder's page that shows a game in play; one that is not live (its file made beside
// the game, perhaps not there yet) holds it all at the end.
func TestALiveReplaysFileHoldsEachDecisionAtOnce(t *testing.T) {
	steps, end := playedGame(t, "ninjas", 3, 5, 9)
	for _, live := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "d00000-r0.jsonl")
		res, rw := &MatchResult{}, &replayWriter{live: live}
		require.NoError(t, openReplayFile(path, res, rw))
		for i, st := range steps {
			rw.decision(st.g, st.choice, st.took, st.fallback)
			b, err := os.ReadFile(res.ReplayFile())
			if live {
				require.NoError(t, err)
				require.Equal(t, i+1, bytes.Count(b, []byte("\n")), "after decision %d", i)
			} else if err == nil || !errors.Is(err, os.ErrNotExist) {
				require.NoError(t, err)
				require.Empty(t, b, "a replay that is not live is written at its end")
			}
		}
		rw.write(resultRecord(end))
		require.NoError(t, rw.close())
		require.NoError(t, commitReplay(res))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, string(referenceRecords(steps, end)), string(b), "live %v", live)
	}
}
