package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/klauspost/compress/gzip"
)

var (
	_ Programs = (*Postgres)(nil)
	_ Replays  = (*Postgres)(nil)
	_ Replays  = (*SQLite)(nil)
)

// compress gzips a replay; JSON lines shrink several times over. Nil stays nil. The
// compressors are reused: a new one allocates and clears about a megabyte of state,
// 40% of the compression's CPU in a worker's profile (perf record of `arena worker`).
// They are klauspost/compress's, at its default level: half the standard library's
// CPU (a third on a three-player Kardinal game) for 2-7% more bytes stored, in the
// same gzip format (BenchmarkReplayGzip).
func compress(b []byte) ([]byte, error) {
	if b == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

func decompress(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// SHA256Hex is the hex SHA-256 of b, the name of a program.
func SHA256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// PutProgram stores a bot program under its digest.
func (p *Postgres) PutProgram(ctx context.Context, sum string, content []byte) error {
	if got := SHA256Hex(content); got != sum {
		return fmt.Errorf("program has SHA-256 %.12s, not %.12s", got, sum)
	}
	_, err := p.pool.Exec(ctx, `INSERT INTO programs (sha256, content, added) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
		sum, content, time.Now().Truncate(time.Millisecond))
	return err
}

// Program fetches a bot program by its digest.
func (p *Postgres) Program(ctx context.Context, sum string) ([]byte, error) {
	var b []byte
	err := p.pool.QueryRow(ctx, `SELECT content FROM programs WHERE sha256 = $1`, sum).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no program with SHA-256 %.12s in the database", ErrNotFound, sum)
	}
	return b, err
}

// Replay returns a game's replay from the database.
func (p *Postgres) Replay(ctx context.Context, match int64) ([]byte, error) {
	var gz []byte
	err := p.pool.QueryRow(ctx, `SELECT r.gzip FROM matches m LEFT JOIN replays r ON r.match_id = m.id WHERE m.id = $1`, match).Scan(&gz)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no game %d", ErrNotFound, match)
	}
	if err != nil {
		return nil, err
	}
	if gz == nil {
		return nil, fmt.Errorf("%w: game %d was recorded without a replay", ErrNotFound, match)
	}
	return unzipReplay(gz, match)
}

// unzipReplay is game match's replay from its stored gzip.
func unzipReplay(gz []byte, match int64) ([]byte, error) {
	b, err := decompress(gz)
	if err != nil {
		return nil, fmt.Errorf("replay of game %d is damaged: %w", match, err)
	}
	return b, nil
}

// Replay reads a game's replay from the database, or, for a game recorded without
// one (by `ladder serve`, or by an arena before replays were kept in the database),
// from its file, which lies beside the database on this machine (a relative path is
// taken from the database's directory).
func (s *SQLite) Replay(ctx context.Context, match int64) ([]byte, error) {
	var path string
	var gz []byte
	err := s.db.QueryRowContext(ctx, `SELECT m.replay, r.gzip FROM matches m LEFT JOIN replays r ON r.match_id = m.id WHERE m.id = ?`, match).Scan(&path, &gz)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no game %d", ErrNotFound, match)
	}
	if err != nil {
		return nil, err
	}
	if gz != nil {
		return unzipReplay(gz, match)
	}
	if path == "" {
		return nil, fmt.Errorf("%w: game %d was recorded without a replay", ErrNotFound, match)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.Dir(), path)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: the replay of game %d, %s, is gone", ErrNotFound, match, path)
	}
	return b, err
}
