package store

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Replays stored before the store's gzip changed (the standard library's) read back,
// and those stored now are plain gzip that the standard library reads.
func TestStoredReplaysAreGzipEitherWay(t *testing.T) {
	replay, err := os.ReadFile(filepath.Join("..", "..", "arena", "testdata", "replays", "kardinal.jsonl"))
	require.NoError(t, err)
	var old bytes.Buffer
	zw := stdgzip.NewWriter(&old)
	_, err = zw.Write(replay)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	back, err := decompress(old.Bytes())
	require.NoError(t, err)
	require.Equal(t, replay, back)

	z, err := compress(replay)
	require.NoError(t, err)
	zr, err := stdgzip.NewReader(bytes.NewReader(z))
	require.NoError(t, err)
	back, err = io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, replay, back)
	require.Less(t, len(z), len(replay)/5, "a replay shrinks several times over")
}
