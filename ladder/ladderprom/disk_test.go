package ladderprom

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReplaysDiskUse: the bytes of the replays under the folder (nested ones too)
// and the free space of its file system, as statfs gives them; a folder not made yet
// holds nothing and reports the disk above it.
func TestReplaysDiskUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "replays")
	read := func() map[string]float64 {
		reg := prometheus.NewRegistry()
		reg.MustRegister(Replays(dir))
		mfs, err := reg.Gather()
		require.NoError(t, err)
		out := map[string]float64{}
		for _, mf := range mfs {
			out[mf.GetName()] = mf.GetMetric()[0].GetGauge().GetValue()
		}
		return out
	}
	got := read()
	assert.Equal(t, 0.0, got["arena_ladder_replays_bytes"], "no folder, no replays")
	assert.Positive(t, got["arena_ladder_replays_disk_size_bytes"])

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ivanhoe", "12"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ivanhoe", "12", "1.replay"), make([]byte, 3000), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2.replay"), make([]byte, 500), 0o644))
	got = read()
	assert.Equal(t, 3500.0, got["arena_ladder_replays_bytes"])
	var st syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &st))
	assert.Equal(t, float64(st.Blocks)*float64(st.Bsize), got["arena_ladder_replays_disk_size_bytes"])
	free := float64(st.Bavail) * float64(st.Bsize)
	// Other processes write to the same disk meanwhile: a tenth of it is far more.
	assert.InDelta(t, free, got["arena_ladder_replays_disk_free_bytes"], got["arena_ladder_replays_disk_size_bytes"]/10)
}
