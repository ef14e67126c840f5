package store

import (
	stdgzip "compress/gzip"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// BenchmarkReplayGzip is what a stored replay costs: CPU per game and the stored size
// beside the replay's, over the replays `arena match` wrote of each game (the arena's
// test data: two-player Ivanhoe and Ninjas, three-player Kardinal). "store" is
// compress; the others are the choices beside it (std: the standard library's gzip,
// which the store used until 27 Nov; kp: klauspost/compress's; the level after).
func BenchmarkReplayGzip(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "arena", "testdata", "replays", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		b.Fatal("no replays in the arena's test data", err)
	}
	levels := []struct {
		name string
		new  func() (io.WriteCloser, func(io.Writer), error)
	}{
		{"std-1", stdLevel(1)}, {"std-6", stdLevel(6)}, {"kp-1", kpLevel(1)}, {"kp-9", kpLevel(9)},
	}
	for _, p := range paths {
		replay, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(p)+"/store", func(b *testing.B) {
			stored := 0
			measureGzip(b, len(replay), func() int {
				z, err := compress(replay)
				if err != nil {
					b.Fatal(err)
				}
				stored = len(z)
				return stored
			})
		})
		for _, level := range levels {
			b.Run(filepath.Base(p)+"/"+level.name, func(b *testing.B) {
				zw, reset, err := level.new()
				if err != nil {
					b.Fatal(err)
				}
				var out countingWriter
				measureGzip(b, len(replay), func() int {
					out = 0
					reset(&out)
					_, _ = zw.Write(replay)
					_ = zw.Close()
					return int(out)
				})
			})
		}
	}
}

func stdLevel(l int) func() (io.WriteCloser, func(io.Writer), error) {
	return func() (io.WriteCloser, func(io.Writer), error) {
		zw, err := stdgzip.NewWriterLevel(nil, l)
		return zw, func(w io.Writer) { zw.Reset(w) }, err
	}
}

func kpLevel(l int) func() (io.WriteCloser, func(io.Writer), error) {
	return func() (io.WriteCloser, func(io.Writer), error) {
		zw, err := gzip.NewWriterLevel(nil, l)
		return zw, func(w io.Writer) { zw.Reset(w) }, err
	}
}

// measureGzip runs one gzip of a replay of n bytes per op, which returns the stored
// size, and reports CPU per game and the sizes.
func measureGzip(b *testing.B, n int, gz func() int) {
	b.ReportAllocs()
	stored, cpu0 := 0, cpuUsed()
	for b.Loop() {
		stored = gz()
	}
	b.ReportMetric(float64((cpuUsed()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/game")
	b.ReportMetric(float64(stored), "stored-bytes")
	b.ReportMetric(float64(n), "replay-bytes")
}

// countingWriter counts what is written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// cpuUsed is the CPU time the test process has used, the figure to quote on a
// shared machine.
func cpuUsed() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
