//go:build linux

package protocol

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStderrSinceAMark: what a bot wrote after a mark, as far as the kept bytes reach,
// so that a process kept between runs gives each run its own stderr.
func TestStderrSinceAMark(t *testing.T) {
	tail := &tailBuffer{max: 4}
	_, _ = tail.Write([]byte("abc"))
	s, mark := tail.since(0)
	assert.Equal(t, "abc", s)
	assert.EqualValues(t, 3, mark)
	_, _ = tail.Write([]byte("de"))
	s, mark2 := tail.since(mark)
	assert.Equal(t, "de", s)
	assert.EqualValues(t, 5, mark2)
	s, _ = tail.since(0)
	assert.Equal(t, "bcde", s, "the kept bytes only")
	_, _ = tail.Write([]byte("fghij"))
	s, _ = tail.since(mark2)
	assert.Equal(t, "ghij", s, "more than is kept since the mark: the last bytes")
	s, mark3 := tail.since(math.MaxInt64)
	assert.Empty(t, s)
	assert.EqualValues(t, 10, mark3)
}
