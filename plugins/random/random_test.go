package random

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
)

func TestChoosesEveryOptionAndStaysInRange(t *testing.T) {
	p := New(3)
	opts := make([]engine.Option, 4)
	var seen [4]int
	for i := 0; i < 400; i++ {
		c := p.Choose(nil, nil, opts)
		if !assert.True(t, c >= 0 && c < len(opts)) {
			return
		}
		seen[c]++
	}
	for i, n := range seen {
		assert.Greater(t, n, 50, "option %d", i)
	}
	assert.Equal(t, New(9).Choose(nil, nil, opts), New(9).Choose(nil, nil, opts), "same seed, same choice")
}
