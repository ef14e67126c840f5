package ladderprom

import (
	"io/fs"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// replaysWalkGap is the shortest time between two walks of the replays' folder: a
// ladder of millions of games keeps as many files, and a scrape every few seconds
// must not walk them all each time. The disk's free space is read at every scrape.
const replaysWalkGap = time.Minute

var (
	descReplayBytes = prometheus.NewDesc("arena_ladder_replays_bytes",
		"Bytes of the replays kept in the ladder's replays folder on this machine (read at most once a minute).", nil, nil)
	descDiskFree = prometheus.NewDesc("arena_ladder_replays_disk_free_bytes",
		"Bytes free for the arena on the file system that holds the ladder's replays.", nil, nil)
	descDiskSize = prometheus.NewDesc("arena_ladder_replays_disk_size_bytes",
		"Size of the file system that holds the ladder's replays.", nil, nil)
)

// replays exports the disk use of a replays folder.
type replays struct {
	dir    string
	mu     sync.Mutex
	walked time.Time
	bytes  float64
}

// Replays exports the bytes of the replays under dir and the free space of the file
// system that holds them: a ladder whose disk fills stops recording games. A folder
// not made yet has no replays: 0 bytes, and the space of the nearest folder above it.
func Replays(dir string) prometheus.Collector { return &replays{dir: dir} }

func (r *replays) Describe(ch chan<- *prometheus.Desc) {
	ch <- descReplayBytes
	ch <- descDiskFree
	ch <- descDiskSize
}

func (r *replays) Collect(ch chan<- prometheus.Metric) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.walked) >= replaysWalkGap {
		r.walked, r.bytes = time.Now(), folderBytes(r.dir)
	}
	ch <- prometheus.MustNewConstMetric(descReplayBytes, prometheus.GaugeValue, r.bytes)
	for d := r.dir; ; d = filepath.Dir(d) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil {
			ch <- prometheus.MustNewConstMetric(descDiskFree, prometheus.GaugeValue, float64(st.Bavail)*float64(st.Bsize))
			ch <- prometheus.MustNewConstMetric(descDiskSize, prometheus.GaugeValue, float64(st.Blocks)*float64(st.Bsize))
			return
		}
		if d == filepath.Dir(d) {
			return
		}
	}
}

// folderBytes sums the sizes of the regular files under dir; what cannot be read is
// left out.
func folderBytes(dir string) float64 {
	total := 0.0
	_ = filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return nil
		}
		if info, err := e.Info(); err == nil {
			total += float64(info.Size())
		}
		return nil
	})
	return total
}
