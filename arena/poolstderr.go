package arena

import (
	"math"
	"strings"
)

// A process that serves several runs at once (PoolConfig.Share) writes one stderr for
// all of them, and a raw line cannot say which match it is about. Each run keeps what
// the process wrote while the run held it; the parts written while another run held
// it too are set between marker lines, since they may be that run's. The pool records
// where in the process's stderr (its byte count) the number of runs holding it changed.

// Marker lines around the parts of a shared process's stderr that other runs' matches
// may have written.
const (
	sharedFrom = "--- arena: from here this process also played a game of another block at once; lines until the next marker may be that game's ---"
	sharedTo   = "--- arena: from here this process played this game alone ---"
)

// shareMark is the point in a kept process's stderr from which n runs held it.
type shareMark struct {
	at int64
	n  int
}

// markShare records that the runs holding k changed, at its stderr's present end,
// and forgets the marks before the oldest run that still holds it; the caller holds
// the pool's mu.
func (k *kept) markShare() {
	_, now := k.p.StderrSince(math.MaxInt64)
	k.shared = append(k.shared, shareMark{at: now, n: len(k.leases)})
	oldest := now
	for _, l := range k.leases {
		oldest = min(oldest, l.mark)
	}
	// Keep the last mark at or before oldest: it says how many held it from there.
	i := 0
	for i+1 < len(k.shared) && k.shared[i+1].at <= oldest {
		i++
	}
	k.shared = k.shared[i:]
}

// attributed is what k wrote to stderr from mark on (as far as its kept bytes reach),
// with the parts written while it was shared between marker lines; the caller holds
// the pool's mu.
func (k *kept) attributed(mark int64) string {
	s, end := k.p.StderrSince(mark)
	begin := end - int64(len(s))
	var b strings.Builder
	shared, from := false, 0
	for i, m := range k.shared {
		next := end
		if i+1 < len(k.shared) {
			next = k.shared[i+1].at
		}
		if next <= begin || m.at >= end {
			continue
		}
		to := lineEnd(s, int(min(next, end)-begin))
		if to <= from {
			continue
		}
		if share := m.n > 1; share != shared {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
			if share {
				b.WriteString(sharedFrom + "\n")
			} else if b.Len() > 0 {
				b.WriteString(sharedTo + "\n")
			}
			shared = share
		}
		b.WriteString(s[from:to])
		from = to
	}
	b.WriteString(s[from:])
	return b.String()
}

// lineEnd moves i in s forward to just after the end of its line (or to the end of
// s), so that a marker never splits a line.
func lineEnd(s string, i int) int {
	if i <= 0 {
		return 0
	}
	if i >= len(s) || s[i-1] == '\n' {
		return min(i, len(s))
	}
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}
