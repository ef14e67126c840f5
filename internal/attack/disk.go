package attack

import (
	"fmt"
	"os"
)

// Filled is what FillDisk wrote and why it stopped.
type Filled struct {
	Bytes int64  `json:"bytes"`
	Files int    `json:"files"`
	Err   string `json:"err,omitempty"`
}

func (f Filled) String() string {
	s := fmt.Sprintf("wrote %d bytes in %d files", f.Bytes, f.Files)
	if f.Err != "" {
		s += ", then: " + f.Err
	}
	return s
}

// FillDisk writes files of 1 MiB into dir until a write fails or it has written
// target bytes: many files, each far below a per-file cap (RLIMIT_FSIZE), as a bot
// that means to fill the disk does.
func FillDisk(dir string, target int64) Filled {
	chunk := make([]byte, 1<<20)
	var f Filled
	for f.Bytes < target && f.Err == "" {
		n, err := writeFile(dir, "fill-", chunk)
		f.Bytes += int64(n)
		f.Files++
		if err != nil {
			f.Err = err.Error()
		}
	}
	return f
}

// writeFile writes what it can of b to a new file of its own (a second fill adds to
// the first) and says how much it wrote.
func writeFile(dir, prefix string, b []byte) (int, error) {
	f, err := os.CreateTemp(dir, prefix)
	if err != nil {
		return 0, err
	}
	n, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// FillInodes makes up to n empty files in dir, until one fails: empty files take no
// space, but each takes an inode.
func FillInodes(dir string, n int) Filled {
	var f Filled
	for ; f.Files < n; f.Files++ {
		if _, err := writeFile(dir, "empty-", nil); err != nil {
			f.Err = err.Error()
			break
		}
	}
	return f
}
